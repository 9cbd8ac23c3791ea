// gpubench list: the families, their benchmarks, and which suites run them; the quick suite's by default, as `run`
// runs it.
#include <iostream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "harness/cli/commands.hpp"
#include "harness/cli/filter_option.hpp"
#include "benchmarks/catalogue.hpp"
#include "harness/runner/micro_listing.hpp"

namespace gpubench {
namespace {

struct ListArguments {
  bool json = false;
  std::string filter;
  std::string suite = "quick";  // as `run`'s
};

int list_command(const ListArguments& args) {
  nlohmann::json out = nlohmann::json::array();
  int families_listed = 0;
  for (const FamilySpec& family : family_catalogue()) {
    if (args.suite == "quick" && !family.in_quick) continue;
    std::vector<std::string> benchmarks;
    for (const FamilyVariant& variant : family.variants) {
      std::map<std::string, std::string> environment = variant.environment;
      environment["GPUBENCH_SUITE"] = args.suite;  // gpubench-micro names what that suite runs
      for (std::string& name : select_benchmarks(list_micro_benchmarks(default_micro_path(), environment), family.name, args.filter)) {
        benchmarks.push_back(std::move(name));
      }
    }
    if (!args.filter.empty() && benchmarks.empty()) continue;  // a filter shows the families it matches, only
    ++families_listed;
    const std::vector<std::string> suites = family.in_quick ? std::vector<std::string>{"quick", "full"} : std::vector<std::string>{"full"};
    if (args.json) {
      out.push_back({{"family", family.name}, {"description", family.description}, {"suites", suites},
                     {"timeout_s", family.timeout.count()}, {"benchmarks", benchmarks}});
      continue;
    }
    std::cout << family.name << "  [" << (family.in_quick ? "quick, full" : "full") << "]  " << family.description << "\n";
    for (const std::string& name : benchmarks) std::cout << "  " << name << "\n";
  }
  if (args.json) std::cout << out.dump(2) << "\n";
  if (families_listed == 0) {
    std::cerr << "gpubench: list: no benchmark of the " << args.suite << " suite matches --filter " << args.filter
              << (args.suite == "quick" ? " (--suite full lists the full suite's)" : "") << "\n";
  }
  return 0;
}

}  // namespace

void add_list_command(CLI::App& app, CommandState& state) {
  auto args = std::make_shared<ListArguments>();
  CLI::App* list = app.add_subcommand("list", "list benchmark families, their benchmarks and suites");
  list->add_option("--suite", args->suite, "the benchmarks this suite runs: quick or full")
      ->check(CLI::IsMember({"quick", "full"}))
      ->capture_default_str();
  list->add_flag("--json", args->json, "print JSON");
  list->add_option("--filter", args->filter, "only benchmarks whose name matches this regular expression")
      ->check(kFilterPattern);
  list->callback([args, &state] { state.exit_code = list_command(*args); });
}

}  // namespace gpubench
