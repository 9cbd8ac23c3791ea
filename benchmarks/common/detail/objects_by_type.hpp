#pragma once
// At most one object of each type, made on first use and owned by this store: the storage behind
// ProcessResources::family_state<T>(), so that a family can keep state for the whole process without a static
// of its own and without main naming the family's types.
#include <map>
#include <memory>
#include <typeindex>
#include <typeinfo>

namespace gpubench::detail {

class ObjectsByType {
 public:
  template <class T>
  T& get_or_make() {
    std::shared_ptr<void>& object = objects_[std::type_index(typeid(T))];
    if (!object) object = std::make_shared<T>();  // shared_ptr<void> keeps T's destructor
    return *static_cast<T*>(object.get());
  }

 private:
  std::map<std::type_index, std::shared_ptr<void>> objects_;
};

}  // namespace gpubench::detail
