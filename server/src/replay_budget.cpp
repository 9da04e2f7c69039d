#include "replay_budget.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <system_error>

namespace carom::server {

ReplayBudget::ReplayBudget(std::filesystem::path dir, ReplayLimits limits)
    : dir_(std::move(dir)), limits_(limits) {}

void ReplayBudget::scan(const std::vector<std::filesystem::path>& recording) {
    finished_.clear();
    bytes_ = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir_, error)) {
        if (entry.path().extension() != ".crpl") continue;
        std::error_code ignored;
        if (!entry.is_regular_file(ignored)) continue;
        if (std::find(recording.begin(), recording.end(), entry.path()) != recording.end())
            continue;
        const std::uint64_t bytes = entry.file_size(ignored);
        const Time modified = entry.last_write_time(ignored);
        finished_.push_back({entry.path(), bytes, modified});
        bytes_ += bytes;
    }
    if (error) spdlog::error("replay budget: cannot list {}: {}", dir_.string(), error.message());
    // Oldest first; names break ties, so the order never depends on the listing's.
    std::sort(finished_.begin(), finished_.end(), [](const Entry& a, const Entry& b) {
        return a.modified != b.modified ? a.modified < b.modified : a.file < b.file;
    });
}

void ReplayBudget::add_finished(const std::filesystem::path& file) {
    std::error_code error;
    const std::uint64_t bytes = std::filesystem::file_size(file, error);
    if (error) return;  // gone already: nothing to keep
    finished_.push_back({file, bytes, std::filesystem::last_write_time(file, error)});
    bytes_ += bytes;
}

std::vector<std::filesystem::path> ReplayBudget::enforce(std::uint64_t recording_bytes, Time now) {
    std::vector<std::filesystem::path> removed;
    const auto keep = std::chrono::duration_cast<Time::duration>(
        std::chrono::duration<double, std::ratio<86400>>(limits_.keep_days));
    const auto too_old = [&](const Entry& e) {
        return limits_.keep_days > 0.0 && now - e.modified > keep;
    };
    const auto too_big = [&] {
        return limits_.max_bytes > 0 && bytes_ + recording_bytes > limits_.max_bytes;
    };
    while (!finished_.empty() && (too_old(finished_.front()) || too_big())) {
        const Entry e = finished_.front();
        finished_.pop_front();
        bytes_ -= e.bytes;
        std::error_code error;
        std::filesystem::remove(e.file, error);
        if (error) {
            // Kept out of the budget's accounts all the same: it is not ours to retry forever.
            spdlog::error("replay budget: cannot remove {}: {}", e.file.string(), error.message());
            continue;
        }
        ++files_removed_;
        removed.push_back(e.file);
    }
    return removed;
}

}  // namespace carom::server
