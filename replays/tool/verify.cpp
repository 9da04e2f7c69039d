// carom-replay verify: re-simulate and check every hash.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "carom/replay/verify.hpp"
#include "commands.hpp"
#include "load.hpp"
#include "progress.hpp"

namespace carom::tool {
namespace {

void print_divergence(const std::string& file, const replay::Divergence& d) {
    // A per-tick hash of format 2 keeps its top bits: as many hex digits.
    const int digits = static_cast<int>((d.hash_bits + 3) / 4);
    std::printf("%s: DIVERGED at tick %llu: %s (recorded hash %0*llx, re-simulated %0*llx%s)\n",
                file.c_str(), static_cast<unsigned long long>(d.tick), d.what.c_str(), digits,
                static_cast<unsigned long long>(d.recorded_hash), digits,
                static_cast<unsigned long long>(d.simulated_hash),
                d.hash_bits < 64 ? ", the top bits the file keeps per tick" : "");
    if (d.recorded_hash == d.simulated_hash) {
        std::printf(
            "  the state agrees there: what the file claims is wrong, not the simulation\n");
        return;
    }
    if (!d.keyframe_tick) {
        std::printf("  no keyframe at or after that tick to compare fields with\n");
        return;
    }
    if (d.fields.empty()) {
        std::printf("  the keyframe at tick %llu agrees field by field\n",
                    static_cast<unsigned long long>(*d.keyframe_tick));
        return;
    }
    std::printf("  at the keyframe of tick %llu (recorded vs re-simulated):\n",
                static_cast<unsigned long long>(*d.keyframe_tick));
    const std::size_t shown = std::min<std::size_t>(d.fields.size(), 20);
    for (std::size_t i = 0; i < shown; ++i) {
        const replay::FieldDiff& f = d.fields[i];
        std::printf("    %s %s: %s vs %s\n", f.entity.c_str(), f.field.c_str(), f.recorded.c_str(),
                    f.simulated.c_str());
    }
    if (shown < d.fields.size()) std::printf("    ... and %zu more\n", d.fields.size() - shown);
}

// A branch verifies alone; where its parent is at hand (`parent`, or the
// file it names beside it), the claim on it is checked too. The exit code.
int check_branch(const std::string& file, const replay::Replay& r, const std::string& parent) {
    const replay::ParentReplay& named = *r.header.parent;
    const unsigned long long tick = r.first_tick();
    const bool given = !parent.empty();
    const std::string path = given ? parent : parent_beside(r, file);
    std::error_code error;
    if (!given && (path.empty() || !std::filesystem::is_regular_file(path, error))) {
        std::printf("  a branch of %s at tick %llu; its parent is not at hand: verified alone\n",
                    named.name.c_str(), tick);
        return kExitOk;
    }
    const auto check = check_parent(r, path);
    if (!check) {
        std::printf("  a branch of %s at tick %llu; %s: %s\n", named.name.c_str(), tick,
                    path.c_str(), check.error().message.c_str());
        return given ? kExitUnreadable : kExitOk;
    }
    if (!given && !check->same_file) {
        std::printf("  a branch of %s at tick %llu; %s is another file (%s): verified alone\n",
                    named.name.c_str(), tick, path.c_str(), check->what.c_str());
        return kExitOk;
    }
    if (check->same_file && check->same_state) {
        std::printf("  a branch of %s at tick %llu; its parent %s: %s\n", named.name.c_str(), tick,
                    path.c_str(), check->what.c_str());
        return kExitOk;
    }
    std::printf("%s: DIVERGED from its parent at tick %llu: %s\n", file.c_str(), tick,
                check->what.c_str());
    return kExitDivergence;
}

int verify_one(const std::string& file, bool synctest, const std::string& parent) {
    const auto r = load(file);
    if (!r) {
        std::fprintf(stderr, "carom-replay verify: %s\n", r.error().message.c_str());
        return kExitUnreadable;
    }
    Progress progress("verify " + file);
    replay::VerifyOptions options;
    options.synctest = synctest;
    options.progress = [&progress](std::uint64_t done, std::uint64_t total) {
        progress.update(done, total);
    };
    const auto start = std::chrono::steady_clock::now();
    const replay::VerifyReport report = replay::verify(*r, options);
    progress.clear();  // before the verdict, which goes to the same terminal
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (report.inconsistency) {
        std::printf("%s: CORRUPT: cannot be played back: %s\n", file.c_str(),
                    report.inconsistency->c_str());
        return kExitUnreadable;
    }
    if (report.divergence) {
        print_divergence(file, *report.divergence);
        return kExitDivergence;
    }
    const double game_seconds = static_cast<double>(report.ticks) / game::kTickRate;
    if (r->problem) {
        std::printf("%s: INCOMPLETE: %llu ticks verified, then the file stops %s\n", file.c_str(),
                    static_cast<unsigned long long>(report.ticks), describe(*r->problem).c_str());
        return kExitUnreadable;
    }
    std::printf(
        "%s: OK: %llu ticks (%.1f s of play), %u keyframes%s, final hash %016llx, "
        "in %.3f s (%.0fx real time)\n",
        file.c_str(), static_cast<unsigned long long>(report.ticks), game_seconds, report.keyframes,
        synctest ? (", " + std::to_string(report.synctest_windows) + " synctest windows").c_str()
                 : "",
        static_cast<unsigned long long>(r->footer->final_hash), seconds,
        seconds > 0 ? game_seconds / seconds : 0.0);
    if (r->header.parent) return check_branch(file, *r, parent);
    return kExitOk;
}

}  // namespace

Command add_verify(CLI::App& app) {
    struct Options {
        std::vector<std::string> files;
        bool synctest = false;
        std::string parent;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "verify",
        "Re-simulate and check every tick's hash and every keyframe.\n"
        "Exit 0 = identical, 1 = divergence (first tick, then fields at the nearest keyframe),\n"
        "2 = unreadable, corrupt or incomplete file (with the reason and byte offset).");
    cmd->add_option("files", o->files, "Replay files")->required();
    cmd->add_flag("--synctest", o->synctest,
                  "Also re-simulate from each keyframe alone and compare (twice the work)");
    cmd->add_option("--parent", o->parent,
                    "A branch's parent: check that it is the file the branch names and that "
                    "its state at the branch's tick is the branch's start (default: the file "
                    "it names, when it is beside the branch; else the branch verifies alone)");
    return {cmd, [o] {
                int worst = kExitOk;
                for (const std::string& f : o->files) {
                    const int code = verify_one(f, o->synctest, o->parent);
                    // Unreadable outranks divergence: it means nothing could be concluded.
                    if (code == kExitUnreadable || (code == kExitDivergence && worst == kExitOk))
                        worst = code;
                }
                return worst;
            }};
}

}  // namespace carom::tool
