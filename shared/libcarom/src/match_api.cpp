// The match: created on a map, joined and left, stepped, read and saved.
#include <array>
#include <string>

#include "api_support.hpp"
#include "carom/game/bot.hpp"
#include "handles.hpp"

namespace carom::capi {

void borrow(carom_match& view, const game::Match& match, std::uint64_t map_hash,
            std::span<const game::MatchEvent> events) {
    view.match = &match;
    view.map_hash = map_hash;
    view.events.assign(events.begin(), events.end());
}

game::Match& owned(carom_match* match) {
    require(match, "match");
    if (!match->owned)
        throw Failure{CAROM_ERROR_STATE,
                      "this match is borrowed from a replay or a client: it is read-only"};
    return *match->owned;
}

namespace {

const game::Match& read(const carom_match* match) {
    require(match, "match");
    if (match->match == nullptr) throw Failure{CAROM_ERROR_STATE, "the match holds no state"};
    return *match->match;
}

game::Slot slot_of(const game::Match& match, std::uint32_t slot) {
    if (slot >= match.slot_count())
        throw Failure{CAROM_ERROR_ARGUMENT,
                      "slot " + std::to_string(slot) + " of " + std::to_string(match.slot_count())};
    return slot;
}

// The inputs of one match's slots, as the game reads them.
class Inputs {
  public:
    Inputs(const game::Match& match, const std::uint8_t* bytes, std::size_t count) {
        if (count != match.slot_count())
            throw Failure{CAROM_ERROR_ARGUMENT, std::to_string(count) + " inputs for " +
                                                    std::to_string(match.slot_count()) + " slots"};
        if (count > 0) require(bytes, "inputs");
        for (std::size_t i = 0; i < count; ++i)
            inputs_[i] = game::Input::from_bits(bytes[i]);
        count_ = count;
    }
    std::span<const game::Input> get() const { return {inputs_.data(), count_}; }

  private:
    std::array<game::Input, 2 * game::limits::kTeamSizeMax> inputs_{};
    std::size_t count_ = 0;
};

void step(carom_match& handle, const Inputs& inputs, std::uint32_t ticks) {
    game::Match& match = *handle.owned;
    handle.events.clear();
    for (std::uint32_t t = 0; t < ticks && match.phase() != game::Phase::finished; ++t) {
        const auto events = match.step(inputs.get());
        handle.events.insert(handle.events.end(), events.begin(), events.end());
    }
}

std::int32_t slot_or_none(const std::optional<game::Slot>& slot) {
    return slot ? static_cast<std::int32_t>(*slot) : -1;
}

carom_disk disk_of(carom_disk_kind kind, std::uint32_t index, std::int32_t team, bool active,
                   const physics::DiskState& d) {
    return {kind,         index,        team,         active ? 1 : 0, d.position.x,
            d.position.y, d.velocity.x, d.velocity.y, d.radius};
}

}  // namespace
}  // namespace carom::capi

using namespace carom;
using namespace carom::capi;

extern "C" {

carom_status carom_match_create(const carom_map* map, uint64_t seed, carom_match** out) {
    return guarded([&] {
        require(map, "map");
        require(out, "out");
        auto handle = std::make_unique<carom_match>();
        handle->owned.emplace(map->checked, seed);
        handle->match = &*handle->owned;
        handle->map_hash = map->hash;
        *out = handle.release();
    });
}

void carom_match_free(carom_match* match) {
    if (match != nullptr && match->owned) delete match;  // a borrowed one is its owner's
}

carom_status carom_match_free_slot(const carom_match* match, int32_t team, uint32_t* slot) {
    return guarded([&] {
        const game::Match& m = read(match);
        require(slot, "slot");
        if (team < -1 || team > 1)
            throw Failure{CAROM_ERROR_ARGUMENT,
                          "team " + std::to_string(team) + ": 0 left, 1 right, -1 either"};
        const auto free =
            m.free_slot(team < 0 ? std::nullopt : std::optional(static_cast<game::Team>(team)));
        if (!free) throw Failure{CAROM_ERROR_STATE, "the match is full"};
        *slot = *free;
    });
}

carom_status carom_match_join(carom_match* match, uint32_t slot, const char* name) {
    return guarded([&] {
        game::Match& m = owned(match);
        m.join(slot_of(m, slot), require(name, "name"));
    });
}

carom_status carom_match_leave(carom_match* match, uint32_t slot) {
    return guarded([&] {
        game::Match& m = owned(match);
        m.leave(slot_of(m, slot));
    });
}

carom_status carom_match_step(carom_match* match, const uint8_t* inputs, size_t count,
                              uint32_t ticks) {
    return guarded([&] {
        const Inputs in(owned(match), inputs, count);
        step(*match, in, ticks);
    });
}

carom_status carom_matches_step(carom_match* const* matches, size_t match_count,
                                const uint8_t* inputs, size_t input_count, uint32_t ticks,
                                int32_t* phases) {
    return guarded([&] {
        if (match_count > 0) require(matches, "matches");
        // Every argument checked before any match steps: a refused call changes nothing.
        std::size_t needed = 0;
        for (std::size_t i = 0; i < match_count; ++i)
            needed += owned(matches[i]).slot_count();
        if (input_count != needed)
            throw Failure{CAROM_ERROR_ARGUMENT, std::to_string(input_count) + " inputs for " +
                                                    std::to_string(needed) + " slots"};
        std::size_t at = 0;
        for (std::size_t i = 0; i < match_count; ++i) {
            const std::size_t slots = matches[i]->owned->slot_count();
            step(*matches[i], Inputs(*matches[i]->owned, inputs + at, slots), ticks);
            at += slots;
            if (phases != nullptr) phases[i] = static_cast<int32_t>(matches[i]->owned->phase());
        }
    });
}

carom_status carom_matches_observe(const carom_match* const* matches, size_t match_count,
                                   double* values, size_t capacity, size_t* count) {
    return guarded([&] {
        if (match_count > 0) require(matches, "matches");
        require(count, "count");
        if (capacity > 0) require(values, "values");
        std::size_t n = 0;
        const auto put = [&](double v) {
            if (n < capacity) values[n] = v;
            ++n;
        };
        const auto put_disk = [&](const physics::DiskState& d) {
            put(d.position.x);
            put(d.position.y);
            put(d.velocity.x);
            put(d.velocity.y);
        };
        for (std::size_t i = 0; i < match_count; ++i) {
            const game::Match& m = read(matches[i]);
            put(static_cast<double>(m.tick()));
            put(static_cast<double>(m.phase()));
            put(m.score(game::Team::left));
            put(m.score(game::Team::right));
            for (std::uint32_t p = 0; p < m.puck_count(); ++p)
                put_disk(m.puck_disk(p));
            for (game::Slot s = 0; s < m.slot_count(); ++s)
                put_disk(m.player_disk(s));
            for (std::uint32_t d = 0; d < m.disc_count(); ++d)
                put_disk(m.disc_disk(d));
        }
        *count = n;
    });
}

carom_status carom_match_bot_input(const carom_match* match, uint32_t slot, uint8_t* input) {
    return guarded([&] {
        const game::Match& m = read(match);
        *require(input, "input") = game::bot_decision(m, slot_of(m, slot)).bits();
    });
}

carom_status carom_match_get_info(const carom_match* match, carom_match_info* out) {
    return guarded([&] {
        const game::Match& m = read(match);
        carom_match_info& i = *require(out, "out");
        i = {};
        i.tick = m.tick();
        i.phase = static_cast<int32_t>(m.phase());
        i.score[0] = m.score(game::Team::left);
        i.score[1] = m.score(game::Team::right);
        i.ticks_left = m.ticks_left();
        i.slots = m.slot_count();
        i.pucks = m.puck_count();
        i.discs = m.disc_count();
        for (game::Slot s = 0; s < m.slot_count(); ++s)
            i.players += m.active(s) ? 1U : 0U;
        i.seed = m.seed();
    });
}

carom_status carom_match_state_hash(const carom_match* match, uint64_t* hash) {
    return guarded([&] { *require(hash, "hash") = read(match).state_hash(); });
}

carom_status carom_match_disks(const carom_match* match, carom_disk* disks, size_t capacity,
                               size_t* count) {
    return guarded([&] {
        const game::Match& m = read(match);
        require(count, "count");
        if (capacity > 0) require(disks, "disks");
        std::size_t n = 0;
        const auto put = [&](const carom_disk& d) {
            if (n < capacity) disks[n] = d;
            ++n;
        };
        for (std::uint32_t p = 0; p < m.puck_count(); ++p)
            put(disk_of(CAROM_DISK_PUCK, p, -1, true, m.puck_disk(p)));
        for (game::Slot s = 0; s < m.slot_count(); ++s)
            put(disk_of(CAROM_DISK_PLAYER, s, game::index_of(m.team_of(s)), m.active(s),
                        m.player_disk(s)));
        for (std::uint32_t d = 0; d < m.disc_count(); ++d)
            put(disk_of(CAROM_DISK_DISC, d, -1, true, m.disc_disk(d)));
        *count = n;
    });
}

carom_status carom_match_player(const carom_match* match, uint32_t slot, carom_player* out) {
    return guarded([&] {
        const game::Match& m = read(match);
        const game::Slot s = slot_of(m, slot);
        carom_player& p = *require(out, "out");
        p = {};
        p.slot = s;
        p.team = game::index_of(m.team_of(s));
        p.active = m.active(s) ? 1 : 0;
        copy_text(p.name, m.name(s));
        p.goals = m.goals(s);
        p.last_input = m.last_input(s).bits();
    });
}

carom_status carom_match_events(const carom_match* match, carom_event* events, size_t capacity,
                                size_t* count) {
    return guarded([&] {
        read(match);
        fill(events, capacity, count, match->events, [](const game::MatchEvent& e) {
            carom_event c{};
            c.kind = static_cast<int32_t>(e.kind);
            c.tick = e.tick;
            c.team = game::index_of(e.team);
            c.puck = e.puck;
            c.scorer = slot_or_none(e.scorer);
            c.own_goal_by = slot_or_none(e.own_goal_by);
            c.draw = e.draw ? 1 : 0;
            return c;
        });
    });
}

carom_status carom_match_save(const carom_match* match, carom_state** out) {
    return guarded([&] {
        const game::Match& m = read(match);
        *require(out, "out") = new carom_state{m.save(), match->map_hash};
    });
}

carom_status carom_match_restore(carom_match* match, const carom_state* state) {
    return guarded([&] {
        game::Match& m = owned(match);
        require(state, "state");
        if (state->map_hash != match->map_hash)
            throw Failure{CAROM_ERROR_DATA, "the state was saved from a match on another map"};
        m.restore(state->state);
        match->events.clear();
    });
}

void carom_state_free(carom_state* state) {
    delete state;
}
}
