#pragma once
// The server's one background thread for its replay files: compressing and
// writing their chunks, closing them, the index's rows. Jobs run one at a
// time in the order posted, so a file's chunks land in order and a replay's
// row follows its footer; the tick only posts them.
#include <functional>
#include <memory>

#include "carom/replay/writer.hpp"

namespace carom::server {

class DiskWork {
  public:
    DiskWork();
    // Runs every job posted, then stops the thread.
    ~DiskWork();
    DiskWork(const DiskWork&) = delete;
    DiskWork& operator=(const DiskWork&) = delete;

    // A job that throws is logged; the jobs after it run all the same.
    void post(std::function<void()> job);
    // Returns once every job posted before has run.
    void drain();
    // post(), as a replay writer takes it.
    replay::FileWork file_work();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace carom::server
