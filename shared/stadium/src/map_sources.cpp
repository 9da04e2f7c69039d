#include "map_sources.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <system_error>
#include <utility>

namespace carom::stadium::detail {

std::string MapSources::in_stadium_terms(const std::string& problem) const {
    // Every "list[k]" of a list the importer filled, once each, in the
    // problem's order.
    std::vector<std::pair<std::size_t, std::string>> whence;
    for (const auto& [list, sources] : sources_) {
        const std::string prefix = list + "[";
        for (std::size_t at = problem.find(prefix); at != std::string::npos;
             at = problem.find(prefix, at + 1)) {
            if (at > 0 && (std::isalnum(static_cast<unsigned char>(problem[at - 1])) != 0 ||
                           problem[at - 1] == '_'))
                continue;  // "xposts[" is not "posts["
            const char* first = problem.data() + at + prefix.size();
            std::size_t index = 0;
            const auto [end, ec] = std::from_chars(first, problem.data() + problem.size(), index);
            if (ec != std::errc{} || *end != ']' || index >= sources.size()) continue;
            const std::string said =
                list + "[" + std::to_string(index) + "] is the stadium's " + sources[index];
            const auto same = [&](const auto& w) { return w.second == said; };
            if (std::none_of(whence.begin(), whence.end(), same)) whence.emplace_back(at, said);
        }
    }
    if (whence.empty()) return problem;
    std::sort(whence.begin(), whence.end());
    std::string out = problem + " (";
    for (std::size_t i = 0; i < whence.size(); ++i)
        out += (i > 0 ? "; " : "") + whence[i].second;
    return out + ")";
}

}  // namespace carom::stadium::detail
