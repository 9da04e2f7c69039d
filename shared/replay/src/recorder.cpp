#include "carom/replay/recorder.hpp"

#include <stdexcept>

namespace carom::replay {
namespace {

Header header_for(const game::Match& match, std::string producer,
                  const std::vector<game::RosterEntry>& players, std::uint32_t final_pause_ticks,
                  std::uint32_t format_version, std::optional<ParentReplay> parent) {
    if (format_version < 3 && (match.tick() != 0 || parent))
        throw std::invalid_argument("recorder: a match from a state, or a branch, needs format 3");
    Header h;
    h.format_version = format_version;
    h.start_tick = match.tick();
    h.parent = std::move(parent);
    h.producer = std::move(producer);
    h.map = match.map();
    h.seed = match.seed();
    h.players = players;
    h.final_pause_ticks = final_pause_ticks;
    return h;
}

Keyframe keyframe_of(const game::Match& match) {
    return Keyframe{match.state_hash(), match.save(), {}};
}

}  // namespace

MatchRecorder::MatchRecorder(const std::filesystem::path& path, const game::Match& match,
                             std::string producer, const std::vector<game::RosterEntry>& players,
                             std::uint32_t final_pause_ticks, std::uint32_t format_version,
                             FileWork work, std::optional<ParentReplay> parent)
    : header_(header_for(match, std::move(producer), players, final_pause_ticks, format_version,
                         std::move(parent))),
      writer_(path, header_, std::move(work)) {
    applied_.assign(match.slot_count(), game::Input{});
    static_cast<void>(keyframe(match));  // an error is kept as write_error()
}

void MatchRecorder::check_open() const {
    if (finished_) throw std::logic_error("recorder: the match is finished");
}

void MatchRecorder::joining(const game::Match& match, game::Slot slot, std::string name, bool bot) {
    check_open();
    settle(match);
    game::RosterChange join{match.tick() + 1, slot, true, std::move(name), bot};
    writer_.add_roster(join);
    joins_.push_back(std::move(join));
}

void MatchRecorder::leaving(const game::Match& match, game::Slot slot) {
    check_open();
    settle(match);
    writer_.add_roster({match.tick() + 1, slot, false, {}, false});
}

Status MatchRecorder::stepped(const game::Match& match, std::span<const game::MatchEvent> events) {
    check_open();
    // What the step applied: an active slot's input (Match keeps it as
    // last_input), idle for an empty slot.
    for (game::Slot s = 0; s < applied_.size(); ++s)
        applied_[s] = match.active(s) ? match.last_input(s) : game::Input{};
    settled_.reset();
    if (Status added = writer_.add_tick(match.tick(), applied_, match.state_hash(), events); !added)
        return added;
    if (match.tick() % kKeyframeTicks == 0) return keyframe(match);
    return {};
}

Status MatchRecorder::keyframe(const game::Match& match) {
    Keyframe k = keyframe_of(match);
    if (match.tick() == header_.start_tick)
        for (const physics::HashedValue& v : match.world().hashed_values())
            k.world.push_back(v.bits);
    return writer_.add_keyframe(k);
}

void MatchRecorder::settle(const game::Match& match) {
    if (!settled_) settled_ = keyframe_of(match);
}

Result<Footer> MatchRecorder::finish(const game::Match& match) {
    if (finished_) throw std::logic_error("recorder: already finished");
    // The state after the last step: roster changes made since belong to a
    // tick that never ran, so neither the final keyframe nor the footer sees them.
    const Keyframe last = settled_ ? *settled_ : keyframe_of(match);
    if (last.state.tick % kKeyframeTicks != 0 && last.state.tick != header_.start_tick)
        if (Status added = writer_.add_keyframe(last); !added) return added.error();
    Footer f;
    f.final_tick = last.state.tick;
    f.final_hash = last.hash;
    f.score = last.state.score;
    if (last.state.phase != game::Phase::finished) {
        f.result = Outcome::unfinished;
    } else if (f.score[0] == f.score[1]) {
        f.result = Outcome::draw;
    } else {
        f.result = f.score[0] > f.score[1] ? Outcome::left_won : Outcome::right_won;
    }
    if (Status written = writer_.finish(f); !written) return written.error();
    finished_ = true;
    return f;
}

}  // namespace carom::replay
