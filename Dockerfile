# gpubench in a container: built on NVIDIA's CUDA devel image, run from its runtime image, which carries cuBLAS and
# NCCL. The NVIDIA Container Toolkit on the host gives the container its GPUs and the driver's libraries (NVML too).
#
#   docker build -t gpubench .
#   docker build --build-arg CUDA_ARCHITECTURES=90-real -t gpubench .      only for Hopper: a much shorter build
#   docker run --rm --gpus all --hostname "$(hostname)" --shm-size=1g --ulimit memlock=-1 -e NCCL_NVLS_ENABLE=0 \
#       -v /var/lib/gpubench:/results gpubench acceptance --results-dir /results
#
# The build context is this repository with its .git (the git revision goes into every results document); the
# runtime image has the programs in /opt/gpubench/bin (gpubench, gpubench-micro, gpubench-mpi) and the baselines in
# /opt/gpubench/share/gpubench/baselines, where the installed gpubench finds them.
ARG CUDA_VERSION=13.0.1
ARG UBUNTU_VERSION=24.04

FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu${UBUNTU_VERSION} AS build
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# The devel image has nvcc, cuBLAS, NCCL and nvml.h; the rest from Ubuntu (as scripts/setup.sh installs them). The
# base image's tag fixes the Ubuntu release, whose archive moves package versions on: they are not pinned here.
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      cmake ninja-build g++ git libbenchmark-dev nlohmann-json3-dev libcli11-dev libopenmpi-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# Empty: every data-centre generation, as CMakeLists.txt sets it. There is no GPU to ask during a build.
ARG CUDA_ARCHITECTURES=""
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUBENCH_BUILD_TESTS=OFF \
      ${CUDA_ARCHITECTURES:+"-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}"} \
 && cmake --build build \
 && cmake --install build --prefix /opt/gpubench

FROM nvidia/cuda:${CUDA_VERSION}-runtime-ubuntu${UBUNTU_VERSION}
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# Google Benchmark's and Open MPI's shared libraries, and mpirun for gpubench-mpi, through packages whose names do
# not carry a library version (libbenchmark-dev brings libbenchmark1.x; openmpi-bin, libopenmpi3).
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libbenchmark-dev openmpi-bin \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/gpubench /opt/gpubench
# Every library the programs link (cuBLAS and NCCL from the runtime image among them) must be here: a missing one
# fails the image build, named by ldd, instead of the first run on a GPU node.
RUN if ldd /opt/gpubench/bin/* | grep "not found"; then exit 1; fi
ENV PATH=/opt/gpubench/bin:${PATH}
WORKDIR /results
ENTRYPOINT ["gpubench"]
CMD ["--help"]
