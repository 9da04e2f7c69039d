#include "web_page.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace carom::server {
namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kTypes{{
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".wasm", "application/wasm"},
    {".css", "text/css; charset=utf-8"},
    {".png", "image/png"},
    {".svg", "image/svg+xml"},
    {".json", "application/json"},
}};

bool plain_name(std::string_view name) {
    if (name.empty() || name.size() > 128 || name.front() == '.') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
    });
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

std::string_view target_path(std::string_view target) {
    return target.substr(0, target.find('?'));
}

std::optional<PageFile> page_file(std::string_view target, const std::filesystem::path& dir) {
    std::string_view path = target_path(target);
    if (path == "/") path = "/play.html";
    if (path.size() < 2 || path.front() != '/') return std::nullopt;
    const std::string_view name = path.substr(1);
    if (!plain_name(name)) return std::nullopt;
    for (const auto& [extension, type] : kTypes) {
        if (name.size() > extension.size() && name.ends_with(extension))
            return PageFile{dir / std::string(name), type};
    }
    return std::nullopt;
}

bool origin_allowed(std::string_view origin, std::string_view host, bool tls,
                    const std::vector<std::string>& allowed) {
    if (origin.empty()) return true;
    const std::string o = lower(origin);
    if (!host.empty() && o == (tls ? "https://" : "http://") + lower(host)) return true;
    return std::any_of(allowed.begin(), allowed.end(),
                       [&o](const std::string& a) { return a == "*" || lower(a) == o; });
}

}  // namespace carom::server
