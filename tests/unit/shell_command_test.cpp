// The watched command as it is printed: words a shell leaves alone as they are, the rest in single quotes.
#include "harness/watch/shell_command.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(ShellCommand, QuotesOnlyTheWordsThatNeedIt) {
  EXPECT_EQ(shell_command({"python3", "train.py", "--lr=3e-4", "data/a,b:c@x%y+z"}),
            "python3 train.py --lr=3e-4 data/a,b:c@x%y+z");
  EXPECT_EQ(shell_command({"python", "stream.py", "--size", "8 GiB"}), "python stream.py --size '8 GiB'");
  EXPECT_EQ(shell_command({"echo", "$HOME", "a*b"}), "echo '$HOME' 'a*b'");
}

TEST(ShellCommand, AnEmptyWordAndASingleQuoteSurviveBeingTypedAgain) {
  EXPECT_EQ(shell_command({"printf", ""}), "printf ''");
  EXPECT_EQ(shell_command({"echo", "it's"}), "echo 'it'\\''s'");
  EXPECT_EQ(shell_command({}), "");
}

}  // namespace
}  // namespace gpubench
