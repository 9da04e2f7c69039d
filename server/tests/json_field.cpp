// json-field FILE POINTER...: prints the value at each JSON pointer (RFC 6901,
// e.g. /invalid_total or "/invalid/too short") of the JSON document in FILE,
// one a line, so the end-to-end scripts can read the stats file without a
// JSON tool of their own. Exit 0 = every value printed; 1 = the file does not
// parse or lacks one of the values (named on stderr); 2 = usage.
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: json-field FILE POINTER...\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << argv[1] << ": cannot open\n";
        return 1;
    }
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (doc.is_discarded()) {
        std::cerr << argv[1] << ": not valid JSON\n";
        return 1;
    }
    for (int i = 2; i < argc; ++i) {
        const std::string pointer = argv[i];
        nlohmann::json::json_pointer p;
        try {
            p = nlohmann::json::json_pointer(pointer);
        } catch (const nlohmann::json::exception&) {
            std::cerr << pointer << ": not a JSON pointer\n";
            return 2;
        }
        if (!doc.contains(p)) {
            std::cerr << argv[1] << ": no " << pointer << "\n";
            return 1;
        }
        std::cout << doc.at(p).dump() << "\n";
    }
    return 0;
}
