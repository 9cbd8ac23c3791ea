#pragma once
// The collectives the nccl family measures, and the names their metric ids give them
// (nccl/<name>/<algo>/<proto>/<size>/<placement>/busbw). Plain C++ with no NCCL in it: the check kernel switches on
// the kind, and the harness reads ids by the name.
#include <optional>
#include <string_view>

namespace gpubench {

enum class Collective { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv };

inline constexpr Collective kEveryCollective[] = {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
                                                  Collective::Broadcast, Collective::Reduce,    Collective::AllToAll,
                                                  Collective::SendRecv};

constexpr std::string_view collective_id_name(Collective collective) {
  switch (collective) {
    case Collective::AllReduce: return "allreduce";
    case Collective::AllGather: return "allgather";
    case Collective::ReduceScatter: return "reducescatter";
    case Collective::Broadcast: return "broadcast";
    case Collective::Reduce: return "reduce";
    case Collective::AllToAll: return "alltoall";
    case Collective::SendRecv: return "sendrecv";
  }
  return "";
}

// The collective an id names ("allgather"), or nullopt.
constexpr std::optional<Collective> collective_from_id_name(std::string_view name) {
  for (Collective collective : kEveryCollective) {
    if (collective_id_name(collective) == name) return collective;
  }
  return std::nullopt;
}

}  // namespace gpubench
