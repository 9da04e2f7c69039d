#pragma once
// What an import accepted without an effect, and why: Imported::notes.
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace carom::stadium::detail {

class ImportNotes {
  public:
    // "field: why", in the order noted.
    void note(const std::string& field, const std::string& why) {
        notes_.push_back(field + ": " + why);
    }

    // What the format does not have and HaxBall passes over: a key (an
    // editor's leftover, like a vertex's "pos") or a collision flag's name
    // (like ""). carom passes over it too, and says so in one note per kind
    // of field and reason ("vertexes[].pos"), after the others.
    void ignore(const std::string& field, const std::string& why);

    // Every note, those of ignore() last.
    std::vector<std::string> all() &&;

  private:
    struct Ignored {
        std::string first;  // the first field where it was met
        std::size_t count = 0;
    };
    std::vector<std::string> notes_;
    std::map<std::pair<std::string, std::string>, Ignored> ignored_;  // by ("list[].key", why)
};

}  // namespace carom::stadium::detail
