// The Server's replays on disk: the index of the directory and its budget
// (age and bytes), kept as matches finish.
#include "server.hpp"

#include <spdlog/spdlog.h>

namespace carom::server {

void Server::open_replay_index() {
    // The index is a convenience over the files: a server that cannot keep
    // it records all the same (`carom-replay index DIR` rebuilds it).
    if (auto index = replay_index::Index::open(config_.replay_dir); !index) {
        spdlog::error("replay index: {}", index.error().message);
    } else if (auto synced = index->sync(); !synced) {
        spdlog::error("replay index: {}", synced.error().message);
    } else {
        spdlog::info("replay index: {} replays, {} added, {} rows of removed files dropped",
                     synced->kept + synced->added, synced->added, synced->removed);
        replay_index_.emplace(std::move(*index));
    }
}

void Server::start_replay_budget() {
    const ReplayLimits limits{config_.replay_keep_days, config_.replay_max_bytes};
    if (config_.replay_dir.empty() || !limits.any()) return;
    replay_budget_.emplace(config_.replay_dir, limits);
    std::vector<std::filesystem::path> recording;
    for (const auto& room : rooms_)
        recording.push_back(room->recording());
    replay_budget_->scan(recording);
    keep_replay_budget();
}

void Server::replay_closed(const MatchSummary& summary, const Status& whole) {
    // The file has its footer; its row follows (a crash between: the next
    // start's sync adds it).
    if (whole && replay_index_ && summary.index_row)
        if (auto added = replay_index_->add(*summary.index_row); !added)
            spdlog::error("replay index: {}", added.error().message);
    const std::lock_guard lock(closed_mutex_);
    replays_closed_.push_back({summary.replay, whole});
}

bool Server::take_closed_replays() {
    std::vector<ClosedReplay> closed;
    {
        const std::lock_guard lock(closed_mutex_);
        closed.swap(replays_closed_);
    }
    for (const ClosedReplay& c : closed) {
        if (!c.whole) {
            ++stats_.replay_write_errors;
            spdlog::error("replay {}: its end could not be written: {}", c.file.string(),
                          c.whole.error().message);
        } else if (replay_budget_) {
            replay_budget_->add_finished(c.file);
        }
    }
    return !closed.empty() && replay_budget_.has_value();
}

void Server::keep_replay_budget() {
    if (!replay_budget_) return;
    std::uint64_t recording = 0;
    for (const auto& room : rooms_)
        recording += room->recording_bytes();
    for (const auto& removed :
         replay_budget_->enforce(recording, std::filesystem::file_time_type::clock::now())) {
        spdlog::info("replay budget: removed {}", removed.string());
        // The file first, then its row: a crash between leaves a row that the
        // next start's sync drops.
        if (replay_index_)
            disk_.post([this, removed] {
                if (auto dropped = replay_index_->remove(removed); !dropped)
                    spdlog::error("replay index: {}", dropped.error().message);
            });
    }
    stats_.replay_bytes_kept = replay_budget_->bytes_kept() + recording;
    stats_.replay_files_removed = replay_budget_->files_removed();
}

}  // namespace carom::server
