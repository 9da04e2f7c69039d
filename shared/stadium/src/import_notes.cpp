#include "import_notes.hpp"

namespace carom::stadium::detail {

void ImportNotes::ignore(const std::string& field, const std::string& why) {
    // "discs[12].x" and "discs[3].x" are one kind: "discs[].x".
    std::string kind;
    for (std::size_t i = 0; i < field.size(); ++i) {
        kind += field[i];
        if (field[i] == '[')
            while (i + 1 < field.size() && field[i + 1] != ']')
                ++i;
    }
    Ignored& seen = ignored_[{kind, why}];
    if (seen.count++ == 0) seen.first = field;
}

std::vector<std::string> ImportNotes::all() && {
    for (const auto& [kind_why, seen] : ignored_) {
        const auto& [kind, why] = kind_why;
        note(seen.first, seen.count == 1 ? why
                                         : why + " (" + std::to_string(seen.count) + " times, as " +
                                               kind + ")");
    }
    ignored_.clear();
    return std::move(notes_);
}

}  // namespace carom::stadium::detail
