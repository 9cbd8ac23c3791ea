#include "benchmarks/nccl_mpi/mpi_world.hpp"

#include <climits>
#include <cstdlib>
#include <stdexcept>

namespace gpubench {
namespace {

void check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + text);
}

int as_count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) throw std::length_error("MPI message of " + std::to_string(bytes) + " bytes");
  return static_cast<int>(bytes);
}

}  // namespace

MpiWorld::MpiWorld(int* argc, char*** argv) {
  check(MPI_Init(argc, argv), "MPI_Init");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_), "MPI_Comm_split_type");
  check(MPI_Comm_rank(node_, &local_rank_), "MPI_Comm_rank(node)");
}

MpiWorld::~MpiWorld() {
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
  MPI_Finalize();
}

void MpiWorld::barrier() const { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

void MpiWorld::broadcast(void* data, std::size_t bytes, int root) const {
  check(MPI_Bcast(data, as_count(bytes), MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
}

double MpiWorld::max(double value) const {
  double result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce(MAX)");
  return result;
}

int MpiWorld::max(int value) const {
  int result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce(MAX)");
  return result;
}

std::vector<char> MpiWorld::gather(const void* data, std::size_t bytes, int root) const {
  std::vector<char> all(rank_ == root ? bytes * static_cast<std::size_t>(size_) : 0);
  check(MPI_Gather(data, as_count(bytes), MPI_BYTE, all.data(), as_count(bytes), MPI_BYTE, root, MPI_COMM_WORLD),
        "MPI_Gather");
  return all;
}

std::vector<std::string> MpiWorld::gather_text(const std::string& text, int root) const {
  const int length = as_count(text.size());
  std::vector<int> lengths(rank_ == root ? size_ : 0);
  check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Gather(lengths)");
  std::vector<int> offsets(lengths.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = as_count(total);
    total += static_cast<std::size_t>(lengths[i]);
  }
  std::vector<char> all(total);
  check(MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, root,
                    MPI_COMM_WORLD),
        "MPI_Gatherv");
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < lengths.size(); ++i) texts.emplace_back(all.data() + offsets[i], static_cast<std::size_t>(lengths[i]));
  return texts;
}

void MpiWorld::abort(int exit_code) const {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::abort();  // MPI_Abort does not return; this is for the compiler
}

}  // namespace gpubench
