// Environment variables that change what a benchmark measures: what each does, and how much it matters.
#include <cctype>
#include <optional>

#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

struct Effect {
  Severity severity;
  std::string what;
};

bool switched_on(const std::string& value) { return !value.empty() && value != "0"; }

// What `name=value` does to results; nullopt when it does nothing worth saying (unknown, or the inert value).
std::optional<Effect> effect_of(const std::string& name, const std::string& value) {
  const std::string set = name + "=" + value;
  if (name == "CUDA_LAUNCH_BLOCKING") {
    if (!switched_on(value)) return std::nullopt;
    return Effect{Severity::Warning, set + ": every kernel launch waits for the kernel to finish, so launch, overlap and multi-stream figures measure the wait"};
  }
  if (name == "NVIDIA_TF32_OVERRIDE") {
    if (value == "0") return Effect{Severity::Warning, set + ": turns TF32 off in cuBLAS and cuDNN, so FP32 matrix products run without tensor cores, many times slower on Ampere and later"};
    return Effect{Severity::Info, set + ": only the value 0 does anything (it turns TF32 off)"};
  }
  if (name == "NCCL_ALGO") return Effect{Severity::Warning, set + ": forces NCCL's algorithm for every message size instead of NCCL's choice per size, so collectives can run slower than the node allows"};
  if (name == "NCCL_PROTO") return Effect{Severity::Warning, set + ": forces NCCL's protocol (LL, LL128, Simple) for every message size, so small or large messages run slower than they can"};
  if (name == "NCCL_P2P_DISABLE" && switched_on(value)) {
    return Effect{Severity::Warning, set + ": NCCL does not use NVLink or PCIe peer-to-peer between the GPUs of a node; its traffic goes through host memory, many times slower"};
  }
  if (name == "NCCL_SHM_DISABLE" && switched_on(value)) {
    return Effect{Severity::Warning, set + ": NCCL does not use shared host memory between processes; where P2P is not possible, traffic inside the node falls back to the network"};
  }
  if (name == "NCCL_IB_DISABLE" && switched_on(value)) {
    return Effect{Severity::Warning, set + ": NCCL does not use InfiniBand or RoCE; traffic between nodes goes over TCP sockets, far slower"};
  }
  if (name == "NCCL_NVLS_ENABLE" && value == "0") {
    return Effect{Severity::Info, set + ": turns NVLink SHARP (NVSwitch multicast) off, so all-reduce on NVSwitch systems runs slower than it can (some sites turn it off on purpose)"};
  }
  if (name == "NCCL_P2P_LEVEL") return Effect{Severity::Info, set + ": limits which GPU pairs NCCL lets talk peer-to-peer, by their distance in the topology"};
  if (name == "NCCL_NET_GDR_LEVEL") return Effect{Severity::Info, set + ": limits where NCCL uses GPUDirect RDMA between network card and GPU"};
  if (name == "NCCL_MIN_NCHANNELS" || name == "NCCL_MAX_NCHANNELS" || name == "NCCL_MIN_CTAS" || name == "NCCL_MAX_CTAS") {
    return Effect{Severity::Info, set + ": fixes how many channels (thread blocks) NCCL uses, which changes bandwidth and the overlap with compute"};
  }
  if (name == "NCCL_BUFFSIZE") return Effect{Severity::Info, set + ": changes NCCL's buffer per channel, which changes bandwidth"};
  if (name == "CUDA_DEVICE_MAX_CONNECTIONS") {
    if (value == "1") return Effect{Severity::Warning, set + ": one hardware work queue per GPU, so kernels of different streams run one after another (Megatron-LM sets this)"};
    return Effect{Severity::Info, set + ": sets the number of hardware work queues per GPU (default 8), which changes how streams overlap"};
  }
  if (name == "CUDA_FORCE_PTX_JIT" && switched_on(value)) {
    return Effect{Severity::Warning, set + ": CUDA ignores the compiled machine code and compiles PTX at start-up, so start-up is slow and kernels may be slower"};
  }
  if (name == "CUBLAS_WORKSPACE_CONFIG") {
    return Effect{Severity::Info, set + ": limits cuBLAS's workspace (set for reproducible results), so some GEMM kernels cannot be used and some shapes run slower"};
  }
  if (name == "CUDA_VISIBLE_DEVICES") {
    return Effect{Severity::Info, set + ": hides or renumbers GPUs; doctor and the benchmarks see only these, numbered from 0 (nvidia-smi's numbers may differ)"};
  }
  return std::nullopt;
}

std::string check_id(const std::string& name) {
  std::string id = "env.";
  for (char c : name) id += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return id;
}

}  // namespace

void judge_variables(const std::map<std::string, std::string>& variables, std::vector<Finding>& out) {
  bool any = false;
  for (const auto& [name, value] : variables) {
    const std::optional<Effect> effect = effect_of(name, value);
    if (!effect) continue;
    any = true;
    const std::string fix = name == "CUDA_VISIBLE_DEVICES" ? "unset it to check and use every GPU"
                                                           : "unset it (`unset " + name + "`) unless the run is meant to measure with it";
    out.push_back({effect->severity, check_id(name), {}, effect->what, fix});
  }
  if (!any) out.push_back({Severity::Ok, "env.variables", {}, "no environment variable that changes results is set", ""});
}

}  // namespace gpubench
