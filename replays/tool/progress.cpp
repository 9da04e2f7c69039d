#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace carom::tool {

Progress::Progress(std::string label) : label_(std::move(label)), enabled_(isatty(2) == 1) {}

Progress::~Progress() {
    clear();
}

void Progress::clear() {
    if (drawn_) std::fputs("\r\033[K", stderr);
    drawn_ = false;
}

void Progress::update(std::uint64_t done, std::uint64_t total) {
    if (!enabled_ || total == 0) return;
    constexpr int kWidth = 30;
    const auto filled = static_cast<int>(done * kWidth / total);
    std::fprintf(stderr, "\r%s [%.*s%*s] %3d%%", label_.c_str(), filled,
                 "##############################", kWidth - filled, "",
                 static_cast<int>(done * 100 / total));
    std::fflush(stderr);
    drawn_ = true;
}

}  // namespace carom::tool
