#include "replay/load.hpp"

#include <chrono>
#include <fstream>
#include <iterator>
#include <span>
#include <variant>

#include "carom/replay/reader.hpp"

namespace carom::bench {

Result<LoadedReplay> load_replay(const std::string& path) {
    const auto start = std::chrono::steady_clock::now();
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(path + ": cannot open the file");
    std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>()};
    if (in.bad()) return fail(path + ": read error");
    auto read = replay::read_replay(std::span<const std::uint8_t>(bytes));
    const auto elapsed = std::chrono::steady_clock::now() - start;

    if (!read) return fail(path + ": unreadable " + read.error().message);
    replay::Replay r = std::move(*read);
    if (r.problem) {
        return fail(path + ": read stopped at byte " + std::to_string(r.problem->offset) + ": " +
                    r.problem->reason);
    }
    return LoadedReplay{path, std::move(bytes), std::move(r),
                        std::chrono::duration<double, std::milli>(elapsed).count()};
}

}  // namespace carom::bench
