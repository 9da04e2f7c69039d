// carom-replay diff: the first tick at which two replays of the same start differ.
#include <cstdio>
#include <memory>

#include "carom/protocol/map_codec.hpp"
#include "carom/replay/verify.hpp"
#include "commands.hpp"
#include "load.hpp"

namespace carom::tool {
namespace {

const replay::Keyframe* keyframe_at_or_after(const replay::Replay& r, std::uint64_t tick) {
    for (const replay::Keyframe& k : r.keyframes)
        if (k.state.tick >= tick) return &k;
    return nullptr;
}

int diff(const std::string& path_a, const std::string& path_b) {
    const auto a = load(path_a, "diff");
    const auto b = load(path_b, "diff");
    if (!a || !b) return kExitUnreadable;
    if (protocol::map_to_binary(a->header.map) != protocol::map_to_binary(b->header.map) ||
        a->header.seed != b->header.seed) {
        std::printf("different starts: map %s seed %llu vs map %s seed %llu\n",
                    a->header.map.name.c_str(), static_cast<unsigned long long>(a->header.seed),
                    b->header.map.name.c_str(), static_cast<unsigned long long>(b->header.seed));
        return kExitDivergence;
    }
    const std::uint64_t common = std::min(a->last_tick(), b->last_tick());
    std::uint64_t first = 0;
    for (std::uint64_t t = 1; t <= common && first == 0; ++t)
        if (a->hash_after(t) != b->hash_after(t)) first = t;
    if (first == 0) {
        if (a->last_tick() == b->last_tick()) {
            std::printf("identical: %llu ticks, every hash equal\n",
                        static_cast<unsigned long long>(common));
            return kExitOk;
        }
        std::printf("equal for all %llu common ticks; %s is longer (%llu vs %llu ticks)\n",
                    static_cast<unsigned long long>(common),
                    a->last_tick() > b->last_tick() ? path_a.c_str() : path_b.c_str(),
                    static_cast<unsigned long long>(a->last_tick()),
                    static_cast<unsigned long long>(b->last_tick()));
        return kExitDivergence;
    }
    std::printf("first difference at tick %llu (%.2f s): hash %016llx vs %016llx\n",
                static_cast<unsigned long long>(first),
                static_cast<double>(first) / game::kTickRate,
                static_cast<unsigned long long>(a->hash_after(first)),
                static_cast<unsigned long long>(b->hash_after(first)));
    const replay::Keyframe* ka = keyframe_at_or_after(*a, first);
    const replay::Keyframe* kb = keyframe_at_or_after(*b, first);
    if (ka && kb && ka->state.tick == kb->state.tick) {
        std::printf("  at the keyframe of tick %llu (A vs B):\n",
                    static_cast<unsigned long long>(ka->state.tick));
        for (const replay::FieldDiff& f : replay::diff_states(ka->state, kb->state))
            std::printf("    %s %s: %s vs %s\n", f.entity.c_str(), f.field.c_str(),
                        f.recorded.c_str(), f.simulated.c_str());
    }
    return kExitDivergence;
}

}  // namespace

Command add_diff(CLI::App& app) {
    struct Options {
        std::string a, b;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "diff", "First tick at which two replays of the same start differ (exit 0 = identical)");
    cmd->add_option("a", o->a, "First replay")->required();
    cmd->add_option("b", o->b, "Second replay")->required();
    return {cmd, [o] { return diff(o->a, o->b); }};
}

}  // namespace carom::tool
