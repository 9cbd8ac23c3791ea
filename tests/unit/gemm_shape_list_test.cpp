// The user's GEMM shapes (`run --gemm-shapes`, GPUBENCH_GEMM_SHAPES): what is read, what is refused, and how a
// re-measurement finds them again in benchmark names.
#include "benchmarks/gemm/gemm_shape_list.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace gpubench {
namespace {

TEST(GemmShapeList, ReadsListsAndFilesAlike) {
  const std::vector<GemmShape> expected = {{8192, 4096, 11008}, {4096, 4096, 4096}};
  EXPECT_EQ(parse_gemm_shape_list("8192,4096,11008:4096,4096,4096"), expected);
  EXPECT_EQ(parse_gemm_shape_list("# Llama-2-7B, batch 8192\n8192x4096x11008\n 4096, 4096, 4096 # square\n\n"), expected);
  EXPECT_EQ(parse_gemm_shape_list("8192,4096,11008:8192x4096x11008:4096,4096,4096"), expected) << "a repeat is kept once";
  EXPECT_EQ(format_gemm_shape_list(expected), "8192,4096,11008:4096,4096,4096");
  EXPECT_EQ(parse_gemm_shape_list(format_gemm_shape_list(expected)), expected);
  EXPECT_TRUE(parse_gemm_shape_list("").empty());
}

TEST(GemmShapeList, RefusesWhatIsNotAShapeNamingIt) {
  for (const char* bad : {"8192,4096", "8192,4096,0", "8192,4096,-1", "8192,4096,4096,1", "a,b,c", "8192;4096;4096",
                          "8192,4096,131073", "99999999999999999999,1,1", "8192x4096,1"}) {
    try {
      parse_gemm_shape_list(bad);
      ADD_FAILURE() << bad << ": expected an error";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("is not a GEMM shape"), std::string::npos) << error.what();
    }
  }
  std::string many;
  for (int i = 1; i <= static_cast<int>(kMaxGemmShapes) + 1; ++i) many += std::to_string(i) + ",1,1:";
  EXPECT_THROW(parse_gemm_shape_list(many), std::invalid_argument);
}

TEST(GemmShapeList, FindsTheShapesOfGemmBenchmarks) {
  const std::vector<GemmShape> shapes = gemm_shapes_named_in(
      {"gemm/bf16/8192x4096x11008/gpu0", "gemm/fp8_e4m3/8192x4096x11008/gpu1", "gemm/burst/bf16/8192x8192x8192/gpu0",
       "memory/triad/1GiB/gpu0", "gemm/tf32/1000x2000x3000/gpu0"});
  EXPECT_EQ(shapes, (std::vector<GemmShape>{{8192, 4096, 11008}, {1000, 2000, 3000}}));
}

}  // namespace
}  // namespace gpubench
