#include "kernels/stream.cuh"

namespace gpubench::kernels {
namespace {

// Each op is written once as element arithmetic on float4 and used by both the timed kernel and the
// verifier, so a correct result is bit-identical (fused multiply-adds are explicit, not left to contraction).
__device__ __forceinline__ float4 scale4(float s, float4 x) {
  return make_float4(__fmul_rn(s, x.x), __fmul_rn(s, x.y), __fmul_rn(s, x.z), __fmul_rn(s, x.w));
}
__device__ __forceinline__ float4 add4(float4 x, float4 y) {
  return make_float4(__fadd_rn(x.x, y.x), __fadd_rn(x.y, y.y), __fadd_rn(x.z, y.z), __fadd_rn(x.w, y.w));
}
__device__ __forceinline__ float4 triad4(float4 x, float s, float4 y) {
  return make_float4(__fmaf_rn(s, y.x, x.x), __fmaf_rn(s, y.y, x.y), __fmaf_rn(s, y.z, x.z), __fmaf_rn(s, y.w, x.w));
}
__device__ __forceinline__ std::uint32_t xor4(float4 x) {
  return __float_as_uint(x.x) ^ __float_as_uint(x.y) ^ __float_as_uint(x.z) ^ __float_as_uint(x.w);
}

// A 16-byte load of data the kernel never writes; with Prefetch, L2 fetches 256 bytes from DRAM per miss.
template <bool Prefetch>
__device__ __forceinline__ float4 load4(const float4* p) {
  if constexpr (Prefetch) {
    float4 x;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
        : "l"(p));
    return x;
  } else {
    return *p;
  }
}

template <StreamOp Op, bool Prefetch = false>
__device__ __forceinline__ float4 expected_output(const StreamArgs& args, std::size_t v) {
  const float4* a = reinterpret_cast<const float4*>(args.a) + v;
  const float4* b = reinterpret_cast<const float4*>(args.b) + v;
  if constexpr (Op == StreamOp::Write) return make_float4(args.scalar, args.scalar, args.scalar, args.scalar);
  if constexpr (Op == StreamOp::Copy) return load4<Prefetch>(a);
  if constexpr (Op == StreamOp::Scale) return scale4(args.scalar, load4<Prefetch>(a));
  if constexpr (Op == StreamOp::Add) return add4(load4<Prefetch>(a), load4<Prefetch>(b));
  if constexpr (Op == StreamOp::Triad) return triad4(load4<Prefetch>(a), args.scalar, load4<Prefetch>(b));
  return make_float4(0.f, 0.f, 0.f, 0.f);
}

__device__ __forceinline__ void store4(float4* p, float4 x, bool streaming) {
  if (streaming) {
    __stcs(p, x);
  } else {
    *p = x;
  }
}

// Grid-stride loop; each pass a thread issues `Unroll` independent 16-byte loads per input before its
// first store, so enough bytes are in flight to cover HBM latency.
template <StreamOp Op, int Unroll, bool Prefetch>
__global__ void __launch_bounds__(1024) stream_kernel(StreamArgs args, bool streaming) {
  const std::size_t vectors = args.count / 4;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  float4* c = reinterpret_cast<float4*>(args.c);
  const float4* a = reinterpret_cast<const float4*>(args.a);
  std::uint32_t seen = 0;
  std::size_t v = tid;
  for (; v + (Unroll - 1) * stride < vectors; v += Unroll * stride) {
    if constexpr (Op == StreamOp::Read) {
      float4 x[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u) x[u] = Prefetch ? load4<true>(a + v + u * stride) : __ldcs(a + v + u * stride);
#pragma unroll
      for (int u = 0; u < Unroll; ++u) seen ^= xor4(x[u]);
    } else {
      float4 out[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u) out[u] = expected_output<Op, Prefetch>(args, v + u * stride);
#pragma unroll
      for (int u = 0; u < Unroll; ++u) store4(c + v + u * stride, out[u], streaming);
    }
  }
  for (; v < vectors; v += stride) {
    if constexpr (Op == StreamOp::Read) {
      seen ^= xor4(Prefetch ? load4<true>(a + v) : __ldcs(a + v));
    } else {
      store4(c + v, expected_output<Op, Prefetch>(args, v), streaming);
    }
  }
  if constexpr (Op == StreamOp::Read) {
    if (tid < args.sink_words) args.sink[tid] = seen;
  }
}

template <StreamOp Op>
__global__ void count_mismatches_kernel(StreamArgs args, unsigned long long* mismatches) {
  const std::size_t vectors = args.count / 4;
  const float4* c = reinterpret_cast<const float4*>(args.c);
  unsigned long long bad = 0;
  for (std::size_t v = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; v < vectors;
       v += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float4 want = expected_output<Op>(args, v);
    const float4 got = c[v];
    // Compare bits, not values: NaN poison must count as wrong.
    bad += (__float_as_uint(want.x) != __float_as_uint(got.x)) + (__float_as_uint(want.y) != __float_as_uint(got.y)) +
           (__float_as_uint(want.z) != __float_as_uint(got.z)) + (__float_as_uint(want.w) != __float_as_uint(got.w));
  }
  if (bad) atomicAdd(mismatches, bad);
}

// For Read: XOR of every bit pattern in a, and XOR of every word the timed kernel left in sink.
__global__ void read_checksums_kernel(StreamArgs args, std::size_t sink_used, std::uint32_t* checksums) {
  const std::size_t vectors = args.count / 4;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  std::uint32_t from_data = 0;
  std::uint32_t from_sink = 0;
  for (std::size_t v = tid; v < vectors; v += stride) from_data ^= xor4(reinterpret_cast<const float4*>(args.a)[v]);
  for (std::size_t w = tid; w < sink_used; w += stride) from_sink ^= args.sink[w];
  atomicXor(&checksums[0], from_data);
  atomicXor(&checksums[1], from_sink);
}

__global__ void compare_checksums_kernel(const std::uint32_t* checksums, unsigned long long* mismatches) {
  if (checksums[0] != checksums[1]) atomicAdd(mismatches, 1ull);
}

template <StreamOp Op, bool Prefetch>
cudaError_t launch_unrolled(const StreamLaunch& launch, const StreamArgs& args, cudaStream_t stream) {
  const bool cs = launch.streaming_stores;
  switch (launch.unroll) {
    case 1: stream_kernel<Op, 1, Prefetch><<<launch.grid, launch.block, 0, stream>>>(args, cs); break;
    case 2: stream_kernel<Op, 2, Prefetch><<<launch.grid, launch.block, 0, stream>>>(args, cs); break;
    case 4: stream_kernel<Op, 4, Prefetch><<<launch.grid, launch.block, 0, stream>>>(args, cs); break;
    case 8: stream_kernel<Op, 8, Prefetch><<<launch.grid, launch.block, 0, stream>>>(args, cs); break;
    default: return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

template <StreamOp Op>
cudaError_t launch_op(const StreamLaunch& launch, const StreamArgs& args, cudaStream_t stream) {
  return launch.prefetch_loads ? launch_unrolled<Op, true>(launch, args, stream) : launch_unrolled<Op, false>(launch, args, stream);
}

template <StreamOp Op, bool Prefetch>
const void* kernel_address(int unroll) {
  switch (unroll) {
    case 1: return reinterpret_cast<const void*>(&stream_kernel<Op, 1, Prefetch>);
    case 2: return reinterpret_cast<const void*>(&stream_kernel<Op, 2, Prefetch>);
    case 4: return reinterpret_cast<const void*>(&stream_kernel<Op, 4, Prefetch>);
    case 8: return reinterpret_cast<const void*>(&stream_kernel<Op, 8, Prefetch>);
    default: return nullptr;
  }
}

template <StreamOp Op>
const void* kernel_address(const StreamLaunch& launch) {
  return launch.prefetch_loads ? kernel_address<Op, true>(launch.unroll) : kernel_address<Op, false>(launch.unroll);
}

const void* kernel_address(StreamOp op, const StreamLaunch& launch) {
  switch (op) {
    case StreamOp::Read: return kernel_address<StreamOp::Read>(launch);
    case StreamOp::Write: return kernel_address<StreamOp::Write>(launch);
    case StreamOp::Copy: return kernel_address<StreamOp::Copy>(launch);
    case StreamOp::Scale: return kernel_address<StreamOp::Scale>(launch);
    case StreamOp::Add: return kernel_address<StreamOp::Add>(launch);
    case StreamOp::Triad: return kernel_address<StreamOp::Triad>(launch);
  }
  return nullptr;
}

constexpr int kVerifyThreads = 256;
constexpr int kVerifyBlocks = 4096;

}  // namespace

std::size_t stream_bytes_moved(StreamOp op, std::size_t count) {
  const std::size_t array_bytes = count * sizeof(float);
  switch (op) {
    case StreamOp::Read: return array_bytes;
    case StreamOp::Write: return array_bytes;
    case StreamOp::Copy: return 2 * array_bytes;
    case StreamOp::Scale: return 2 * array_bytes;
    case StreamOp::Add: return 3 * array_bytes;
    case StreamOp::Triad: return 3 * array_bytes;
  }
  return 0;
}

const char* stream_op_name(StreamOp op) {
  switch (op) {
    case StreamOp::Read: return "read";
    case StreamOp::Write: return "write";
    case StreamOp::Copy: return "copy";
    case StreamOp::Scale: return "scale";
    case StreamOp::Add: return "add";
    case StreamOp::Triad: return "triad";
  }
  return "unknown";
}

cudaError_t launch_stream(StreamOp op, const StreamLaunch& launch, const StreamArgs& args, cudaStream_t stream) {
  if (args.count % 4 != 0 || launch.grid <= 0 || launch.block <= 0) return cudaErrorInvalidValue;
  switch (op) {
    case StreamOp::Read: return launch_op<StreamOp::Read>(launch, args, stream);
    case StreamOp::Write: return launch_op<StreamOp::Write>(launch, args, stream);
    case StreamOp::Copy: return launch_op<StreamOp::Copy>(launch, args, stream);
    case StreamOp::Scale: return launch_op<StreamOp::Scale>(launch, args, stream);
    case StreamOp::Add: return launch_op<StreamOp::Add>(launch, args, stream);
    case StreamOp::Triad: return launch_op<StreamOp::Triad>(launch, args, stream);
  }
  return cudaErrorInvalidValue;
}

int stream_blocks_per_sm(StreamOp op, const StreamLaunch& launch) {
  const void* kernel = kernel_address(op, launch);
  int blocks = 0;
  if (kernel == nullptr || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, launch.block, 0) != cudaSuccess) {
    return 0;
  }
  return blocks;
}

cudaError_t count_stream_mismatches(StreamOp op, const StreamArgs& args, std::size_t sink_used,
                                    unsigned long long* mismatches, cudaStream_t stream) {
  switch (op) {
    case StreamOp::Read: {
      std::uint32_t* checksums = nullptr;
      cudaError_t err = cudaMallocAsync(&checksums, 2 * sizeof(std::uint32_t), stream);
      if (err != cudaSuccess) return err;
      cudaMemsetAsync(checksums, 0, 2 * sizeof(std::uint32_t), stream);
      read_checksums_kernel<<<kVerifyBlocks, kVerifyThreads, 0, stream>>>(args, sink_used, checksums);
      compare_checksums_kernel<<<1, 1, 0, stream>>>(checksums, mismatches);
      err = cudaGetLastError();
      cudaFreeAsync(checksums, stream);
      return err;
    }
    case StreamOp::Write: count_mismatches_kernel<StreamOp::Write><<<kVerifyBlocks, kVerifyThreads, 0, stream>>>(args, mismatches); break;
    case StreamOp::Copy: count_mismatches_kernel<StreamOp::Copy><<<kVerifyBlocks, kVerifyThreads, 0, stream>>>(args, mismatches); break;
    case StreamOp::Scale: count_mismatches_kernel<StreamOp::Scale><<<kVerifyBlocks, kVerifyThreads, 0, stream>>>(args, mismatches); break;
    case StreamOp::Add: count_mismatches_kernel<StreamOp::Add><<<kVerifyBlocks, kVerifyThreads, 0, stream>>>(args, mismatches); break;
    case StreamOp::Triad: count_mismatches_kernel<StreamOp::Triad><<<kVerifyBlocks, kVerifyThreads, 0, stream>>>(args, mismatches); break;
  }
  return cudaGetLastError();
}

}  // namespace gpubench::kernels
