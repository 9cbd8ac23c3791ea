#pragma once
// The list that GPUBENCH_FAMILY (family_registration.hpp) adds each family to: one static object per family
// file, each linking itself in front of the others while the program starts, before main. The head of the
// list is constant-initialised, so it is ready whichever family file's statics are initialised first; after
// main starts the list is only read.
#include "benchmarks/common/context.hpp"

namespace gpubench {

using RegisterFamily = void (*)(const BenchmarkContext&);

namespace detail {

class FamilyChainLink {
 public:
  FamilyChainLink(const char* family, RegisterFamily register_family);
  FamilyChainLink(const FamilyChainLink&) = delete;
  FamilyChainLink& operator=(const FamilyChainLink&) = delete;

  // The link added last, or null when no family registered itself.
  static const FamilyChainLink* first();

  const char* family() const { return family_; }
  RegisterFamily register_family() const { return register_family_; }
  const FamilyChainLink* next() const { return next_; }

 private:
  const char* family_;
  RegisterFamily register_family_;
  const FamilyChainLink* next_;
};

}  // namespace detail
}  // namespace gpubench
