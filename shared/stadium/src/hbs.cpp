#include "carom/stadium/hbs.hpp"

#include <fstream>

#include "carom/stadium/json5.hpp"
#include "importer.hpp"

namespace carom::stadium {
namespace {

// A stadium is a map file: the same limit as carom's JSON.
constexpr std::size_t kMaxFileBytes = game::limits::kFileBytes;

}  // namespace

Result<Imported> import_stadium(std::string_view text, const std::string& where,
                                const ImportOptions& options) {
    Json5Limits limits;
    limits.max_bytes = kMaxFileBytes;
    auto root = parse_json5(text, limits);
    if (!root) return root.error_in(where);
    detail::Importer importer(*root, options);
    if (const Status read = importer.run(); !read) return read.error_in(where);
    if (const Status valid = game::validate(importer.map()); !valid)
        return fail(where +
                    ": as a carom map: " + importer.in_stadium_terms(valid.error().message));
    return std::move(importer).result();
}

Result<Imported> load_stadium_file(const std::filesystem::path& path,
                                   const ImportOptions& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(path.string() + ": cannot open the stadium file");
    std::string text(kMaxFileBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) return fail(path.string() + ": read error");
    text.resize(static_cast<std::size_t>(in.gcount()));
    return import_stadium(text, path.string(), options);
}

}  // namespace carom::stadium
