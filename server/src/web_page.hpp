#pragma once
// What the HTTP port decides without touching a socket: which file of the
// page directory a request names, and whether a browser's page may open /ws.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carom::server {

struct PageFile {
    std::filesystem::path file;
    std::string_view content_type;
};

// The file a GET of `target` asks for: "/" (whatever its query: the page's
// own parameters) is play.html; "/NAME" is NAME when it is one plain name
// ([A-Za-z0-9_.-], not starting with a dot) of a type the page uses (.html,
// .js, .wasm, .css, .png, .svg, .json). Nothing else: no directories, no
// other files of the directory. The file may still not exist.
std::optional<PageFile> page_file(std::string_view target, const std::filesystem::path& dir);

// The path of a request target, without its query ("/ws?x=1" → "/ws").
std::string_view target_path(std::string_view target);

// May a WebSocket upgrade carrying `origin` (empty: the header was absent, so
// not a browser's) open, on a port reached as `host` (the Host header)? A
// page of the server's own origin may, and any listed in `allowed` ("*":
// any). Compared without regard to case, as browsers send them lowercase.
bool origin_allowed(std::string_view origin, std::string_view host, bool tls,
                    const std::vector<std::string>& allowed);

}  // namespace carom::server
