#include "disk_work.hpp"

#include <spdlog/spdlog.h>
#include <asio/post.hpp>
#include <asio/strand.hpp>
#include <asio/thread_pool.hpp>

#include <future>

namespace carom::server {

struct DiskWork::Impl {
    asio::thread_pool pool{1};
    // A strand keeps the posting order, whatever the pool's scheduler does.
    asio::strand<asio::thread_pool::executor_type> order = asio::make_strand(pool);
};

DiskWork::DiskWork() : impl_(std::make_unique<Impl>()) {}

DiskWork::~DiskWork() {
    impl_->pool.join();
}

void DiskWork::post(std::function<void()> job) {
    asio::post(impl_->order, [job = std::move(job)] {
        try {
            job();
        } catch (const std::exception& e) {
            spdlog::error("replay files: {}", e.what());
        }
    });
}

void DiskWork::drain() {
    std::promise<void> done;
    post([&done] { done.set_value(); });
    done.get_future().wait();
}

replay::FileWork DiskWork::file_work() {
    return [this](std::function<void()> job) { post(std::move(job)); };
}

}  // namespace carom::server
