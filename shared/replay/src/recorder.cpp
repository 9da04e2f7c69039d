#include "carom/replay/recorder.hpp"

#include <stdexcept>

namespace carom::replay {
namespace {

Header header_for(const game::Map& map, std::uint64_t seed, std::string producer,
                  const std::vector<PlayerInfo>& players, std::uint32_t final_pause_ticks) {
    Header h;
    h.producer = std::move(producer);
    h.map = map;
    h.seed = seed;
    h.players = players;
    h.final_pause_ticks = final_pause_ticks;
    return h;
}

}  // namespace

MatchRecorder::MatchRecorder(const std::filesystem::path& path, game::Map map, std::uint64_t seed,
                             std::string producer, const std::vector<PlayerInfo>& players,
                             std::uint32_t final_pause_ticks)
    : match_(map, seed),
      writer_(path, header_for(map, seed, std::move(producer), players, final_pause_ticks)) {
    for (const PlayerInfo& p : players)
        match_.join(p.slot, p.name);
    applied_.assign(match_.slot_count(), game::Input{});
    keyframe();
}

void MatchRecorder::join(game::Slot slot, std::string name, bool bot) {
    if (finished_) throw std::logic_error("recorder: the match is finished");
    settle();
    const std::uint64_t tick = match_.tick() + 1;
    match_.join(slot, name);
    writer_.add_roster({tick, slot, true, std::move(name), bot});
}

void MatchRecorder::leave(game::Slot slot) {
    if (finished_) throw std::logic_error("recorder: the match is finished");
    settle();
    match_.leave(slot);
    writer_.add_roster({match_.tick() + 1, slot, false, {}, false});
}

std::span<const game::MatchEvent> MatchRecorder::step(std::span<const game::Input> inputs) {
    if (finished_) throw std::logic_error("recorder: the match is finished");
    if (inputs.size() != applied_.size())
        throw std::invalid_argument("recorder: need one input per slot");
    // Record exactly what the match applies: sanitised, and idle for empty slots.
    for (game::Slot s = 0; s < applied_.size(); ++s)
        applied_[s] = match_.active(s) ? game::Input::from_bits(inputs[s].bits()) : game::Input{};
    settled_.reset();
    last_events_ = {};
    const auto events = match_.step(applied_);
    last_events_ = events;
    const std::uint64_t hash = match_.state_hash();
    writer_.add_tick(match_.tick(), applied_, hash, events);
    if (match_.tick() % kKeyframeTicks == 0) keyframe();
    return events;
}

void MatchRecorder::keyframe() {
    Keyframe k{match_.state_hash(), match_.save(), {}};
    if (match_.tick() == 0)
        for (const physics::HashedValue& v : match_.world().hashed_values())
            k.world.push_back(v.bits);
    writer_.add_keyframe(k);
}

void MatchRecorder::settle() {
    if (!settled_) settled_ = Keyframe{match_.state_hash(), match_.save(), {}};
}

Footer MatchRecorder::finish() {
    if (finished_) throw std::logic_error("recorder: already finished");
    // The state after the last step: roster changes made since belong to a
    // tick that never ran, so neither the final keyframe nor the footer sees them.
    const Keyframe last = settled_ ? *settled_ : Keyframe{match_.state_hash(), match_.save(), {}};
    if (last.state.tick % kKeyframeTicks != 0) writer_.add_keyframe(last);
    Footer f;
    f.final_tick = last.state.tick;
    f.final_hash = last.hash;
    f.score = last.state.score;
    if (last.state.phase != game::Phase::finished) {
        f.result = Result::unfinished;
    } else if (f.score[0] == f.score[1]) {
        f.result = Result::draw;
    } else {
        f.result = f.score[0] > f.score[1] ? Result::left_won : Result::right_won;
    }
    writer_.finish(f);
    finished_ = true;
    return f;
}

}  // namespace carom::replay
