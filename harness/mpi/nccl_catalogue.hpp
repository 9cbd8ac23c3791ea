#pragma once
// gpubench-mpi's place in the family catalogue: the row of the benchmarks its sweep names, as gpubench-micro
// finds it (by the name's prefix, not by a name written here), and the label `gpubench run` gives the variant
// of this process's NCCL_ALGO / NCCL_PROTO.
#include <string>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/nccl/nccl_combination.hpp"

namespace gpubench {

// Throws std::logic_error when no row owns the sweep's benchmark names (the catalogue and the sweep disagree).
const FamilySpec& nccl_family(const NcclCombination& forced);

// "nccl.ring_simple", "nccl.auto": the label of the catalogue's variant whose environment forces `forced`; a
// combination the catalogue does not run (NCCL_ALGO alone, a list such as "^nvls") is named the same way,
// "nccl.<algo>_<proto>".
std::string variant_label(const FamilySpec& family, const NcclCombination& forced);

}  // namespace gpubench
