#include "disk_work.hpp"

#include <spdlog/spdlog.h>
#include <asio/post.hpp>
#include <asio/strand.hpp>
#include <asio/thread_pool.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <future>

namespace carom::server {

struct DiskThread::Impl {
    asio::thread_pool pool{1};
    // A strand keeps the posting order, whatever the pool's scheduler does.
    asio::strand<asio::thread_pool::executor_type> order = asio::make_strand(pool);
};

DiskThread::DiskThread() : impl_(std::make_unique<Impl>()) {
    // The tick comes first: on a busy machine the file work (zstd at level
    // 19 above all) waits for a core rather than the tick for it. Linux's
    // nice value is the calling thread's.
    post([] {
        if (::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10) != 0)
            spdlog::debug("replay files: the file work keeps the tick's priority");
    });
}

DiskThread::~DiskThread() {
    impl_->pool.join();
}

void DiskWork::run(const std::function<void()>& job) {
    try {
        job();
    } catch (const std::exception& e) {
        spdlog::error("replay files: {}", e.what());
    }
}

void DiskThread::post(std::function<void()> job) {
    asio::post(impl_->order, [job = std::move(job)] { run(job); });
}

void DiskThread::drain() {
    std::promise<void> done;
    post([&done] { done.set_value(); });
    done.get_future().wait();
}

replay::FileWork DiskWork::file_work() {
    return [this](std::function<void()> job) { post(std::move(job)); };
}

}  // namespace carom::server
