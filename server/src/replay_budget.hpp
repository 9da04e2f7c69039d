#pragma once
// The disk budget of a replay directory (--replay-keep-days,
// --replay-max-bytes): finished replays older than the age limit are
// removed, then the oldest finished ones while the directory holds more
// than the byte limit, and never more than that: removal stops as soon as
// the directory fits. A replay being written is never removed (it is not
// finished); its bytes count towards the limit all the same.
//
// The budget knows the finished replays from one scan of the directory at
// start (every *.crpl file there: one server per directory) and from the
// matches that finish after it, so enforcing it costs no directory scan.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <string>
#include <vector>

namespace carom::server {

struct ReplayLimits {
    double keep_days = 0.0;       // 0: no age limit
    std::uint64_t max_bytes = 0;  // 0: no size limit
    bool any() const { return keep_days > 0.0 || max_bytes > 0; }
};

class ReplayBudget {
  public:
    using Time = std::filesystem::file_time_type;

    ReplayBudget(std::filesystem::path dir, ReplayLimits limits);

    // Every replay already in the directory, as finished (oldest first by
    // modification time, then name). `recording`: files being written now.
    void scan(const std::vector<std::filesystem::path>& recording);
    // A replay no longer written to (its match finished, or its recording stopped).
    void add_finished(const std::filesystem::path& file);
    // Removes what the limits ask, oldest first; `recording_bytes`: the size
    // of the replays being written. The paths removed, in that order.
    std::vector<std::filesystem::path> enforce(std::uint64_t recording_bytes, Time now);

    // Finished replays kept, and their bytes.
    std::uint64_t bytes_kept() const { return bytes_; }
    std::uint64_t files_removed() const { return files_removed_; }

  private:
    struct Entry {
        std::filesystem::path file;
        std::uint64_t bytes = 0;
        Time modified;
    };

    std::filesystem::path dir_;
    ReplayLimits limits_;
    std::deque<Entry> finished_;  // oldest first
    std::uint64_t bytes_ = 0;
    std::uint64_t files_removed_ = 0;
};

}  // namespace carom::server
