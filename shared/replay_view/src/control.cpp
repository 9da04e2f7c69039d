#include "carom/replay_view/control.hpp"

#include <algorithm>
#include <cmath>

namespace carom::replay_view {

PlaybackControl::PlaybackControl(const SeekEngine& engine, std::uint64_t length,
                                 std::uint64_t start, bool paused)
    : engine_(engine), length_(length), position_(std::min(start, length)), paused_(paused) {}

std::uint64_t PlaybackControl::match_tick() const {
    return std::min(position_, engine_.last_tick());
}

void PlaybackControl::jump_to(std::uint64_t position) {
    position_ = std::min(position, length_);
    fraction_ = 0.0;
}

void PlaybackControl::set_speed(double speed) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < kSpeeds.size(); ++i)
        if (std::abs(kSpeeds[i] - speed) < std::abs(kSpeeds[best] - speed)) best = i;
    speed_index_ = best;
}

void PlaybackControl::press(ViewKey key) {
    const std::uint64_t rate = engine_.replay().header.tick_rate;
    const auto back = [this](std::uint64_t ticks) {
        jump_to(position_ - std::min(position_, ticks));
    };
    switch (key) {
        case ViewKey::pause:
            if (position_ >= length_ && paused_) jump_to(0);  // play again from the start
            paused_ = !paused_;
            break;
        case ViewKey::faster:
            speed_index_ = std::min(speed_index_ + 1, kSpeeds.size() - 1);
            break;
        case ViewKey::slower:
            speed_index_ = speed_index_ == 0 ? 0 : speed_index_ - 1;
            break;
        case ViewKey::back_5s:
            back(5 * rate);
            break;
        case ViewKey::forward_5s:
            jump_to(position_ + 5 * rate);
            break;
        case ViewKey::back_30s:
            back(30 * rate);
            break;
        case ViewKey::forward_30s:
            jump_to(position_ + 30 * rate);
            break;
        case ViewKey::previous_goal:
            if (const auto g = engine_.previous_goal(match_tick())) jump_to(*g);
            break;
        case ViewKey::next_goal:
            if (const auto g = engine_.next_goal(match_tick())) jump_to(*g);
            break;
        case ViewKey::tick_back:
            if (paused_) back(1);
            break;
        case ViewKey::tick_forward:
            if (paused_) jump_to(position_ + 1);
            break;
        case ViewKey::home:
            jump_to(0);
            break;
        case ViewKey::end:
            jump_to(length_);
            break;
        case ViewKey::other:
            break;
    }
}

void PlaybackControl::advance(double seconds) {
    if (paused_ || seconds <= 0.0) return;
    fraction_ += seconds * speed() * static_cast<double>(engine_.replay().header.tick_rate);
    const double whole = std::floor(fraction_);
    fraction_ -= whole;
    const double room = static_cast<double>(length_ - position_);
    position_ += static_cast<std::uint64_t>(std::min(whole, room));
    if (position_ >= length_) {
        position_ = length_;
        paused_ = true;
        fraction_ = 0.0;
    }
}

}  // namespace carom::replay_view
