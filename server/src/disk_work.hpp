#pragma once
// Where the server's replay file work runs: compressing and writing their
// chunks, closing them, the index's rows. Jobs run one at a time in the
// order posted, so a file's chunks land in order and a replay's row follows
// its footer; the tick only posts them. The server takes it as it takes its
// transport: carom-server passes a DiskThread, tests an InlineDiskWork.
#include <functional>
#include <memory>

#include "carom/replay/writer.hpp"

namespace carom::server {

class DiskWork {
  public:
    virtual ~DiskWork() = default;
    // A job that throws is logged; the jobs after it run all the same.
    virtual void post(std::function<void()> job) = 0;
    // Returns once every job posted before has run.
    virtual void drain() = 0;
    // post(), as a replay writer takes it.
    replay::FileWork file_work();

  protected:
    // Runs `job`, logging what it throws.
    static void run(const std::function<void()>& job);
};

// The file work on a background thread of its own, at a lower priority than the tick.
class DiskThread final : public DiskWork {
  public:
    DiskThread();
    // Runs every job posted, then stops the thread.
    ~DiskThread() override;
    DiskThread(const DiskThread&) = delete;
    DiskThread& operator=(const DiskThread&) = delete;

    void post(std::function<void()> job) override;
    void drain() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Each job runs at once, on the thread that posts it: the file work is done
// by the time the tick that posted it returns.
class InlineDiskWork final : public DiskWork {
  public:
    void post(std::function<void()> job) override { run(job); }
    void drain() override {}
};

}  // namespace carom::server
