#pragma once
// Reads a replay for a command.
#include <cstdint>
#include <string>

#include "carom/replay/reader.hpp"
#include "carom/result.hpp"

namespace carom::tool {

// The replay at `path`, or why not: "PATH: is a directory", "PATH: unreadable
// at byte N: why". The command prints it ("carom-replay info: ...").
Result<replay::Replay> load(const std::string& path);
// A 64-bit hash as JSON shows it: 16 lowercase hex digits, as a string (a number
// past 2^53 is rounded by JavaScript and many JSON tools).
std::string hex64(std::uint64_t value);
// "at byte N: reason" for a replay that was read only in part.
std::string describe(const replay::ReadProblem& problem);

}  // namespace carom::tool

namespace carom::tool {

// A branch's claim on its parent, against the replay at `parent_path`: ok
// when that file has the hash the branch names and its state at the
// branch's start tick is the branch's starting state; else what differs.
// The error when the parent cannot be read.
struct ParentCheck {
    bool same_file = false;   // the hash the branch names
    bool same_state = false;  // the parent's state at the start tick is the branch's start
    std::string what;         // one line: what differs, or what agrees
};
Result<ParentCheck> check_parent(const replay::Replay& branch, const std::string& parent_path);
// Where a branch's parent would be, by the name it gives, next to the branch.
std::string parent_beside(const replay::Replay& branch, const std::string& branch_path);

}  // namespace carom::tool
