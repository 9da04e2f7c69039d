// carom-replay html: a replay as one self-contained web page. The page holds
// the replay (base64), carom's core compiled to WebAssembly (carom-viewer.js
// and carom-viewer.wasm.gz, base64, built by `make web`) and the viewer's
// script (replays/web): it opens from file://, re-simulates the match, checks
// it against the file and draws it.
#include <sodium.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "carom/cli/cli.hpp"
#include "carom/game/printable_name.hpp"
#include "carom/result.hpp"
#include "commands.hpp"
#include "load.hpp"

namespace carom::tool {
namespace {

namespace fs = std::filesystem;

// What a page is made of, all from one directory.
constexpr const char* kWebFiles[] = {"page.html", "viewer.js", "carom-viewer.js",
                                     "carom-viewer.wasm.gz"};

struct HtmlArgs {
    std::string file;
    std::string output;
    std::string web_dir;
};

// Where the page's parts are: --web, $CAROM_WEB_DIR, beside an installed
// program (PREFIX/share/carom/web), the build tree's web build (make web),
// the prefix the build was configured for.
std::vector<fs::path> web_dirs(const HtmlArgs& a) {
    if (!a.web_dir.empty()) return {a.web_dir};
    std::vector<fs::path> dirs;
    if (const char* env = std::getenv("CAROM_WEB_DIR"); env != nullptr && *env != '\0')
        dirs.emplace_back(env);
    std::error_code ec;
    if (const fs::path exe = fs::canonical("/proc/self/exe", ec); !ec)
        dirs.push_back(exe.parent_path().parent_path() / "share" / "carom" / "web");
    dirs.emplace_back(CAROM_WEB_BUILD_DIR);
    dirs.emplace_back(CAROM_WEB_INSTALLED_DIR);
    return dirs;
}

Result<std::string> read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in.good() && !in.eof()) return fail(path.string() + ": cannot be read");
    return text.str();
}

Result<fs::path> find_web_dir(const HtmlArgs& a) {
    std::string looked;
    for (const fs::path& dir : web_dirs(a)) {
        bool whole = true;
        for (const char* name : kWebFiles)
            whole = whole && fs::is_regular_file(dir / name);
        if (whole) return dir;
        looked += (looked.empty() ? "" : ", ") + dir.string();
    }
    return fail(
        "the WebAssembly viewer is not built (looked for carom-viewer.js, "
        "carom-viewer.wasm.gz, page.html and viewer.js in " +
        looked + "): run `make web`, or name its directory with --web");
}

std::string escape_html(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string base64(const std::string& bytes) {
    std::string out(sodium_base64_encoded_len(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()),
                      bytes.size(), sodium_base64_VARIANT_ORIGINAL);
    out.resize(out.size() - 1);  // the terminating NUL
    return out;
}

// A script's text may not close its <script> element early.
bool closes_script(const std::string& text) {
    for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 2)) {
        std::string tag = text.substr(at + 2, 6);
        for (char& c : tag)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (tag == "script") return true;
    }
    return false;
}

// Replaces the one "@NAME@" in `page` by `value`.
Status fill(std::string& page, const std::string& name, const std::string& value) {
    const std::string key = "@" + name + "@";
    const std::size_t at = page.find(key);
    if (at == std::string::npos) return fail("page.html has no " + key);
    page.replace(at, key.size(), value);
    return {};
}

Result<std::string> make_page(const HtmlArgs& a, const fs::path& dir, const replay::Replay& replay,
                              const std::string& bytes) {
    std::string parts[std::size(kWebFiles)];
    for (std::size_t i = 0; i < std::size(kWebFiles); ++i) {
        auto text = read_text(dir / kWebFiles[i]);
        if (!text) return fail(text.error().message);
        parts[i] = std::move(*text);
    }
    for (std::size_t i = 1; i < 3; ++i)
        if (closes_script(parts[i]))
            return fail((dir / kWebFiles[i]).string() +
                        " contains \"</script\": it cannot be inlined");
    std::string page = std::move(parts[0]);
    const std::string title = "carom: " + game::printable_name(replay.header.map.name) + " (" +
                              fs::path(a.file).filename().string() + ")";
    // The large parts last, so that no placeholder is searched for inside them.
    for (const auto& [name, value] :
         {std::pair<std::string, std::string>{"GENERATOR", cli::version_text()},
          {"TITLE", escape_html(title)},
          {"REPLAY_NAME", escape_html(fs::path(a.file).filename().string())},
          {"VIEWER", parts[1]},
          {"MODULE", parts[2]},
          {"WASM_GZIP_BASE64", base64(parts[3])},
          {"REPLAY_BASE64", base64(bytes)}})
        if (auto filled = fill(page, name, value); !filled) return fail(filled.error().message);
    return page;
}

int run_html(HtmlArgs a) {
    const auto replay = load(a.file);
    if (!replay) {
        std::fprintf(stderr, "carom-replay html: %s\n", replay.error().message.c_str());
        return kExitUnreadable;
    }
    if (replay->problem)
        std::fprintf(stderr,
                     "carom-replay html: %s: damaged, the page plays up to tick %llu (%s)\n",
                     a.file.c_str(), static_cast<unsigned long long>(replay->last_tick()),
                     describe(*replay->problem).c_str());
    const auto bytes = read_text(a.file);
    if (!bytes) {
        std::fprintf(stderr, "carom-replay html: %s\n", bytes.error().message.c_str());
        return kExitUnreadable;
    }
    if (a.output.empty()) a.output = fs::path(a.file).replace_extension(".html").string();
    const auto dir = find_web_dir(a);
    if (!dir) {
        std::fprintf(stderr, "carom-replay html: %s\n", dir.error().message.c_str());
        return kExitUnreadable;
    }
    const auto page = make_page(a, *dir, *replay, *bytes);
    if (!page) {
        std::fprintf(stderr, "carom-replay html: %s\n", page.error().message.c_str());
        return kExitUnreadable;
    }
    // Written beside its destination and renamed: never half a page.
    const std::string partial = a.output + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << *page;
        out.close();
        if (!out) {
            std::error_code ignored;
            fs::remove(partial, ignored);
            std::fprintf(stderr, "carom-replay html: cannot write %s\n", a.output.c_str());
            return kExitUnreadable;
        }
    }
    std::error_code error;
    fs::rename(partial, a.output, error);
    if (error) {
        std::fprintf(stderr, "carom-replay html: cannot write %s: %s\n", a.output.c_str(),
                     error.message().c_str());
        return kExitUnreadable;
    }
    std::printf(
        "%s: %zu bytes, the match of %s (%llu ticks) and the viewer of %s; open it in a "
        "browser\n",
        a.output.c_str(), page->size(), a.file.c_str(),
        static_cast<unsigned long long>(replay->last_tick()), dir->c_str());
    return kExitOk;
}

}  // namespace

Command add_html(CLI::App& app) {
    auto args = std::make_shared<HtmlArgs>();
    CLI::App* sub = app.add_subcommand(
        "html", "Write a replay as one web page that re-simulates, verifies and draws the match");
    sub->add_option("file", args->file, "Replay file")->required();
    sub->add_option("-o,--output", args->output, "The page to write (default: FILE with .html)");
    sub->add_option("--web", args->web_dir,
                    "The directory of carom-viewer.js, carom-viewer.wasm.gz, page.html and "
                    "viewer.js (default: "
                    "$CAROM_WEB_DIR, the build tree's `make web` output, the installed copy)");
    sub->footer(
        "Exit codes: 0 written, 2 unreadable file, no viewer built, bad arguments or a "
        "write error.");
    return {sub, [args] { return run_html(*args); }};
}

}  // namespace carom::tool
