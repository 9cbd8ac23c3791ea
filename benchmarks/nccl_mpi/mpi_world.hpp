#pragma once
// MPI as gpubench-mpi uses it: initialised for the life of the object, this process's rank in the world and on
// its node, and the few collectives the benchmark needs. Every MPI status is checked; a failure throws an
// exception naming the call (MPI's default handler usually aborts the job first).
#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace gpubench {

class MpiWorld {
 public:
  MpiWorld(int* argc, char*** argv);  // MPI_Init; the node's ranks via MPI_Comm_split_type(SHARED)
  ~MpiWorld();                        // MPI_Finalize
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // rank among the processes on this node

  void barrier() const;
  void broadcast(void* data, std::size_t bytes, int root) const;
  double max(double value) const;  // over all ranks, known to all
  int max(int value) const;
  // `bytes` from every rank, in rank order, on `root` (empty elsewhere).
  std::vector<char> gather(const void* data, std::size_t bytes, int root) const;
  // Every rank's text, in rank order, on `root` (empty elsewhere).
  std::vector<std::string> gather_text(const std::string& text, int root) const;

  // Ends every process of the job: for an error after which the others would wait for this one forever.
  [[noreturn]] void abort(int exit_code) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  MPI_Comm node_ = MPI_COMM_NULL;
};

}  // namespace gpubench
