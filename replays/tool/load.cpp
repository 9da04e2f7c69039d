#include "load.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "carom/replay/field_diff.hpp"
#include "carom/replay/file_hash.hpp"
#include "carom/replay_view/seek.hpp"

namespace carom::tool {

std::string hex64(std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

std::string describe(const replay::ReadProblem& problem) {
    return "at byte " + std::to_string(problem.offset) + ": " + problem.reason;
}

Result<replay::Replay> load(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return fail(path + ": is a directory");
    auto read = replay::read_replay(path);
    if (!read) return fail(path + ": unreadable " + read.error().message);
    return read;
}

}  // namespace carom::tool

namespace carom::tool {

Result<ParentCheck> check_parent(const replay::Replay& branch, const std::string& parent_path) {
    const std::uint64_t tick = branch.first_tick();
    const auto hash = replay::file_hash(parent_path);
    if (!hash) return hash.error();
    ParentCheck check;
    check.same_file = branch.header.parent && branch.header.parent->hash == *hash;
    const auto parent = load(parent_path);
    if (!parent) return parent.error();
    if (parent->problem) return fail(parent_path + ": damaged " + describe(*parent->problem));
    if (tick > parent->last_tick() || tick < parent->first_tick() || branch.keyframes.empty()) {
        check.what = parent_path + " holds no tick " + std::to_string(tick);
        return check;
    }
    replay_view::SeekEngine engine(*parent);
    if (Status sought = engine.seek(tick); !sought) return sought.error();
    const std::uint64_t theirs = engine.match().state_hash();
    const std::uint64_t ours = branch.keyframes.front().hash;
    // Field by field: a branch of an older core's file hashes as this core does.
    const bool hashed_alike = replay::statics_in_hash(parent->header.core_version) ==
                              replay::statics_in_hash(branch.header.core_version);
    check.same_state =
        replay::diff_states(engine.match().save(), branch.keyframes.front().state).empty() &&
        (!hashed_alike || theirs == ours);
    char text[96];
    std::snprintf(text, sizeof text, "(state hash %016llx vs the branch's start %016llx)",
                  static_cast<unsigned long long>(theirs), static_cast<unsigned long long>(ours));
    if (!check.same_file) {
        check.what = parent_path + " is not the file the branch names (XXH3-128 " +
                     replay::to_hex(*hash) + ", the branch names " +
                     (branch.header.parent ? replay::to_hex(branch.header.parent->hash)
                                           : std::string("none")) +
                     ")";
    } else if (!check.same_state) {
        check.what = "the parent's state at tick " + std::to_string(tick) +
                     " is not the branch's start " + text;
    } else {
        check.what = "its state at tick " + std::to_string(tick) + " is the branch's start " + text;
    }
    return check;
}

std::string parent_beside(const replay::Replay& branch, const std::string& branch_path) {
    if (!branch.header.parent) return {};
    const std::filesystem::path name = std::filesystem::path(branch.header.parent->name).filename();
    if (name.empty()) return {};
    return (std::filesystem::path(branch_path).parent_path() / name).string();
}

}  // namespace carom::tool
