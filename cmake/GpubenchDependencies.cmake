# Finds every dependency; a missing one stops configuration and names the package that provides it.

function(gpubench_require found what hint)
  if(NOT ${found})
    message(FATAL_ERROR "gpubench: ${what} not found. ${hint}\n"
                        "scripts/setup.sh installs everything that is missing on Debian/Ubuntu.")
  endif()
endfunction()

find_package(CUDAToolkit 12.0)
gpubench_require(CUDAToolkit_FOUND "CUDA Toolkit (cudart, cuBLAS, cuBLASLt)"
                 "Install the CUDA Toolkit 12 or 13 and put nvcc on PATH.")
foreach(lib cudart_static cublas cublasLt)
  if(NOT TARGET CUDA::${lib})
    message(FATAL_ERROR "gpubench: CUDA::${lib} missing from the CUDA Toolkit at ${CUDAToolkit_LIBRARY_DIR}.")
  endif()
endforeach()

# NCCL ships with the toolkit on some installs and as libnccl-dev on others.
find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_ROOT PATH_SUFFIXES include)
find_library(NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_ROOT PATH_SUFFIXES lib lib64)
set(NCCL_FOUND FALSE)
if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
  set(NCCL_FOUND TRUE)
endif()
gpubench_require(NCCL_FOUND "NCCL (nccl.h, libnccl.so)" "Install libnccl-dev (NVIDIA's CUDA repository) or set NCCL_ROOT.")
add_library(gpubench_nccl INTERFACE)
target_include_directories(gpubench_nccl INTERFACE ${NCCL_INCLUDE_DIR})
target_link_libraries(gpubench_nccl INTERFACE ${NCCL_LIBRARY})

# NVML is loaded at run time with dlopen; only its header is needed to build. The toolkit normally ships it;
# where it does not, scripts/setup.sh installs NVIDIA's nvidia-nvml-dev wheel into build/_deps/nvml.
# The wheel is looked for in this build folder and in build/ (where setup.sh puts it), so that other build
# folders (the presets' build-asan, build-debug) find it too.
set(_gpubench_nvml_hints "")
foreach(_deps IN ITEMS "${CMAKE_BINARY_DIR}/_deps/nvml" "${PROJECT_SOURCE_DIR}/build/_deps/nvml")
  list(APPEND _gpubench_nvml_hints "${_deps}/nvidia/cu13/include" "${_deps}/nvidia/cu12/include"
                                   "${_deps}/nvidia/nvml_dev/include")  # the cu12 wheel's layout
endforeach()
find_path(NVML_INCLUDE_DIR nvml.h HINTS ${CUDAToolkit_INCLUDE_DIRS} ${_gpubench_nvml_hints} ENV NVML_INCLUDE_DIR)
set(NVML_HEADER_FOUND FALSE)
if(NVML_INCLUDE_DIR)
  set(NVML_HEADER_FOUND TRUE)
endif()
gpubench_require(NVML_HEADER_FOUND "nvml.h"
                 "Run scripts/setup.sh (it installs the nvidia-nvml-dev wheel into build/_deps/nvml) or set NVML_INCLUDE_DIR.")
add_library(gpubench_nvml_headers INTERFACE)
target_include_directories(gpubench_nvml_headers SYSTEM INTERFACE ${NVML_INCLUDE_DIR})

find_package(benchmark CONFIG)
gpubench_require(benchmark_FOUND "Google Benchmark" "Install libbenchmark-dev.")
find_package(nlohmann_json 3.9 CONFIG)
gpubench_require(nlohmann_json_FOUND "nlohmann/json" "Install nlohmann-json3-dev.")
find_package(CLI11 CONFIG)
gpubench_require(CLI11_FOUND "CLI11" "Install libcli11-dev.")
find_package(Threads REQUIRED)

if(GPUBENCH_BUILD_TESTS)
  find_package(GTest)
  gpubench_require(GTest_FOUND "GoogleTest" "Install libgtest-dev (or googletest).")
endif()

set(GPUBENCH_HAVE_MPI OFF)
if(GPUBENCH_WITH_MPI)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(GPUBENCH_HAVE_MPI ON)
  else()
    message(STATUS "gpubench: MPI not found; the multi-process mode is not built (install libopenmpi-dev to build it).")
  endif()
endif()
