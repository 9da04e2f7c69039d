// carom-replay diff: where two replays differ. Their starts (header and map,
// field by field), the first tick whose hash differs with the fields of the
// nearest common keyframe, then the input, roster and event streams and the
// footer. Files that hash differently (different core versions) are compared
// keyframe by keyframe instead. Exit 0 only when nothing differs.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "carom/replay/field_diff.hpp"
#include "carom/replay/resimulation.hpp"
#include "commands.hpp"
#include "load.hpp"

namespace carom::tool {
namespace {

using ull = unsigned long long;

void print_fields(const std::vector<replay::FieldDiff>& fields, std::size_t limit = 20) {
    const std::size_t shown = std::min(fields.size(), limit);
    for (std::size_t i = 0; i < shown; ++i)
        std::printf("    %s %s: %s vs %s\n", fields[i].entity.c_str(), fields[i].field.c_str(),
                    fields[i].recorded.c_str(), fields[i].simulated.c_str());
    if (shown < fields.size()) std::printf("    ... and %zu more\n", fields.size() - shown);
}

const replay::Keyframe* keyframe_at(const replay::Replay& r, std::uint64_t tick) {
    for (const replay::Keyframe& k : r.keyframes)
        if (k.state.tick == tick) return &k;
    return nullptr;
}

// The names of the world values: a fresh re-simulation of `r` at tick 0.
std::vector<physics::HashedValue> world_names(const replay::Replay& r) {
    const Result<replay::Resimulation> sim = replay::Resimulation::from_start(r);
    if (!sim) return {};  // not playable here: the values are compared unnamed
    return sim->match().world().hashed_values();
}

// Both keyframes of one tick, field by field (the world values too when
// either carries them, named by a re-simulation of A).
std::vector<replay::FieldDiff> diff_keyframes(const replay::Replay& a, const replay::Keyframe& ka,
                                              const replay::Keyframe& kb) {
    std::vector<replay::FieldDiff> fields = replay::diff_states(ka.state, kb.state);
    if (!ka.world.empty() || !kb.world.empty()) {
        std::vector<physics::HashedValue> named = world_names(a);
        if (named.size() != kb.world.size()) named.resize(kb.world.size());
        for (std::size_t i = 0; i < named.size(); ++i) {
            named[i].bits = kb.world[i];
            if (named[i].entity.empty())
                named[i] = {"world", "value " + std::to_string(i), kb.world[i], false};
        }
        const auto world = replay::diff_world(ka.world, named);
        fields.insert(fields.end(), world.begin(), world.end());
    }
    return fields;
}

std::string describe(const replay::InputChange& c) {
    return "tick " + std::to_string(c.tick) + " slot " + std::to_string(c.slot) + " input " +
           std::to_string(c.input.bits());
}
std::string describe(const game::RosterChange& c) {
    return "tick " + std::to_string(c.tick) + " slot " + std::to_string(c.slot) +
           (c.join ? " join \"" + c.name + "\"" + (c.bot ? " (bot)" : "") : " leave");
}
std::string describe(const game::MatchEvent& e) {
    std::string s = "tick " + std::to_string(e.tick) + " kind " +
                    std::to_string(static_cast<unsigned>(e.kind)) + " team " +
                    std::to_string(game::index_of(e.team));
    if (e.kind == game::MatchEvent::Kind::goal)
        s += " puck " + std::to_string(e.puck) + " scorer " +
             (e.scorer ? std::to_string(*e.scorer) : "none") + " own goal by " +
             (e.own_goal_by ? std::to_string(*e.own_goal_by) : "none");
    if (e.kind == game::MatchEvent::Kind::end && e.draw) s += " draw";
    return s;
}
bool same(const replay::InputChange& x, const replay::InputChange& y) {
    return x.tick == y.tick && x.slot == y.slot && x.input == y.input;
}
bool same(const game::RosterChange& x, const game::RosterChange& y) {
    return x.tick == y.tick && x.slot == y.slot && x.join == y.join && x.name == y.name &&
           x.bot == y.bot;
}
bool same(const game::MatchEvent& x, const game::MatchEvent& y) {
    return describe(x) == describe(y);
}

// The entries of a stream after tick `from`.
template <class T>
std::vector<T> after(const std::vector<T>& stream, std::uint64_t from) {
    std::vector<T> out;
    for (const T& e : stream)
        if (e.tick > from) out.push_back(e);
    return out;
}

// The first entry after tick `from` where two streams differ, or where one
// ends first; true if equal.
template <class T>
bool compare_stream(const char* what, const std::vector<T>& all_a, const std::vector<T>& all_b,
                    std::uint64_t from) {
    const std::vector<T> a = after(all_a, from);
    const std::vector<T> b = after(all_b, from);
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (same(a[i], b[i])) continue;
        std::printf("%s differ at entry %zu: %s vs %s\n", what, i, describe(a[i]).c_str(),
                    describe(b[i]).c_str());
        return false;
    }
    if (a.size() == b.size()) return true;
    std::printf("%s: %zu vs %zu entries, equal as far as both go\n", what, a.size(), b.size());
    return false;
}

// `hashes`: whether the files hash alike (else their final hashes cannot agree).
bool compare_footers(const replay::Replay& a, const replay::Replay& b, bool hashes) {
    if (!a.footer || !b.footer) {
        if (!a.footer && !b.footer) return true;
        std::printf("footer: %s has none\n", a.footer ? "B" : "A");
        return false;
    }
    const replay::Footer& x = *a.footer;
    const replay::Footer& y = *b.footer;
    if (x.final_tick == y.final_tick && (!hashes || x.final_hash == y.final_hash) &&
        x.score == y.score && x.result == y.result)
        return true;
    std::printf("footer: tick %llu hash %016llx %u:%u %s vs tick %llu hash %016llx %u:%u %s\n",
                static_cast<ull>(x.final_tick), static_cast<ull>(x.final_hash), x.score[0],
                x.score[1], replay::to_string(x.result), static_cast<ull>(y.final_tick),
                static_cast<ull>(y.final_hash), y.score[0], y.score[1],
                replay::to_string(y.result));
    return false;
}

// Same hash scheme: the first tick after `from` (where both files start, or
// where a branch parts from its parent) whose hash differs, named at the
// first keyframe both files hold at or after it. True if every common hash
// is equal.
bool compare_hashes(const replay::Replay& a, const replay::Replay& b, std::uint64_t from) {
    // The start has no per-tick hash: its keyframes, where both hold one, stand for it.
    const replay::Keyframe* a0 = keyframe_at(a, from);
    const replay::Keyframe* b0 = keyframe_at(b, from);
    std::optional<std::uint64_t> first;
    if (a0 && b0 && a0->hash != b0->hash) first = from;
    const std::uint64_t common = std::min(a.last_tick(), b.last_tick());
    // Files that keep different bits of each tick's hash compare the bits both keep.
    const std::uint32_t bits = std::min(a.tick_hash_bits, b.tick_hash_bits);
    const auto hash = [bits](const replay::Replay& r, std::uint64_t t) {
        return r.hash_after(t) >> (r.tick_hash_bits - bits);
    };
    for (std::uint64_t t = from + 1; t <= common && !first; ++t)
        if (hash(a, t) != hash(b, t)) first = t;
    if (!first) return true;
    if (*first == from) {
        std::printf("first difference at tick %llu: keyframe hash %016llx vs %016llx\n",
                    static_cast<ull>(from), static_cast<ull>(a0->hash), static_cast<ull>(b0->hash));
    } else {
        const int digits = static_cast<int>((bits + 3) / 4);
        std::printf("first difference at tick %llu (%.2f s): hash %0*llx vs %0*llx\n",
                    static_cast<ull>(*first), static_cast<double>(*first) / game::kTickRate, digits,
                    static_cast<ull>(hash(a, *first)), digits, static_cast<ull>(hash(b, *first)));
    }
    for (const replay::Keyframe& ka : a.keyframes) {
        if (ka.state.tick < *first) continue;
        const replay::Keyframe* kb = keyframe_at(b, ka.state.tick);
        if (!kb) continue;
        const auto fields = diff_keyframes(a, ka, *kb);
        std::printf("  at the keyframe of tick %llu (A vs B):%s\n", static_cast<ull>(ka.state.tick),
                    fields.empty() ? " every stored field agrees" : "");
        print_fields(fields);
        break;
    }
    return false;
}

// Different hash schemes: every keyframe both files hold, field by field.
bool compare_keyframes(const replay::Replay& a, const replay::Replay& b) {
    std::printf("core %u and core %u hash differently: comparing keyframes field by field\n",
                a.header.core_version, b.header.core_version);
    std::size_t compared = 0;
    for (const replay::Keyframe& ka : a.keyframes) {
        const replay::Keyframe* kb = keyframe_at(b, ka.state.tick);
        if (!kb) continue;
        replay::Keyframe x = ka, y = *kb;
        x.world.clear();  // recorded by core 3 on only
        y.world.clear();
        const auto fields = diff_keyframes(a, x, y);
        if (!fields.empty()) {
            std::printf("first difference at the keyframe of tick %llu (A vs B):\n",
                        static_cast<ull>(ka.state.tick));
            print_fields(fields);
            return false;
        }
        ++compared;
    }
    std::printf("%zu common keyframes agree field by field\n", compared);
    return true;
}

// When one file is a branch of the other (it names the other's hash): where
// they part, and whether the parent's state there is the branch's start.
std::optional<std::string> lineage(const std::string& path_a, const replay::Replay& a,
                                   const std::string& path_b, const replay::Replay& b) {
    for (const auto& [parent_path, branch_path, branch, names] :
         {std::tuple{&path_a, &path_b, &b, "B is a branch of A"},
          std::tuple{&path_b, &path_a, &a, "A is a branch of B"}}) {
        if (!branch->header.parent) continue;
        const auto check = check_parent(*branch, *parent_path);
        if (!check || !check->same_file) continue;
        const unsigned long long tick = branch->first_tick();
        return "they part at tick " + std::to_string(tick) + ": " + names + " from tick " +
               std::to_string(tick) + " on (" + (check->same_state ? "" : "but ") + check->what +
               ")";
    }
    return std::nullopt;
}

int diff(const std::string& path_a, const std::string& path_b) {
    const auto a = load(path_a);
    const auto b = load(path_b);
    if (!a) std::fprintf(stderr, "carom-replay diff: %s\n", a.error().message.c_str());
    if (!b) std::fprintf(stderr, "carom-replay diff: %s\n", b.error().message.c_str());
    if (!a || !b) return kExitUnreadable;
    bool equal = true;
    for (const auto& [name, r] : {std::pair{"A", &*a}, std::pair{"B", &*b}}) {
        if (!r->problem) continue;
        std::printf("%s is damaged %s: compared up to its last good chunk\n", name,
                    tool::describe(*r->problem).c_str());
        equal = false;
    }
    // A branch and its parent: the same match up to the branch's tick, where they part.
    std::uint64_t from = std::max(a->first_tick(), b->first_tick());
    const std::optional<std::string> parted = lineage(path_a, *a, path_b, *b);
    if (parted) {
        std::printf("%s\n", parted->c_str());
        equal = false;
    }
    auto starts = replay::diff_starts(a->header, b->header);
    if (parted) {
        // The format, the start and the players there differ as a branch's must.
        std::erase_if(starts, [](const replay::FieldDiff& f) {
            return f.entity.starts_with("header player") || f.field == "format_version" ||
                   f.field == "start_tick" || f.field == "parent" || f.field == "players count";
        });
    }
    if (!starts.empty()) {
        std::printf("different starts (A vs B):\n");
        print_fields(starts);
        equal = false;
    }
    const bool hashes_alike = replay::statics_in_hash(a->header.core_version) ==
                              replay::statics_in_hash(b->header.core_version);
    if (hashes_alike) {
        equal = compare_hashes(*a, *b, from) && equal;
    } else {
        equal = compare_keyframes(*a, *b) && equal;
    }
    equal = compare_stream("inputs", a->inputs, b->inputs, from) && equal;
    equal = compare_stream("roster changes", a->roster, b->roster, from) && equal;
    equal = compare_stream("events", a->events, b->events, from) && equal;
    if (a->last_tick() != b->last_tick()) {
        std::printf("lengths differ: %llu vs %llu ticks\n", static_cast<ull>(a->last_tick()),
                    static_cast<ull>(b->last_tick()));
        equal = false;
    }
    equal = compare_footers(*a, *b, hashes_alike) && equal;
    if (!equal) return kExitDivergence;
    std::printf(
        "identical: %llu ticks; every hash, keyframe, input, roster change and event equal\n",
        static_cast<ull>(a->last_tick()));
    return kExitOk;
}

}  // namespace

Command add_diff(CLI::App& app) {
    struct Options {
        std::string a, b;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "diff",
        "Where two replays differ: start (map field by field), first differing tick with the "
        "fields that differ, inputs, roster, events, footer (exit 0 = identical, 1 = they differ)");
    cmd->add_option("a", o->a, "First replay")->required();
    cmd->add_option("b", o->b, "Second replay")->required();
    return {cmd, [o] { return diff(o->a, o->b); }};
}

}  // namespace carom::tool
