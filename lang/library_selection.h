// Which files of the embedded D library a compile needs. Parsing every file costs more than
// compiling a small script, and most scripts use one or two of them (procfs.d for the sched
// provider, errno.d for EINTR), so a compile parses the files whose names its text mentions.
//
// A file is needed when a word of the user's text (scripts, -L libraries, macro arguments) is a
// name it declares at file scope, or when such a word names a built-in variable or a provider
// whose types it declares, or when a needed file uses one of its names. The selection is a guess
// only where a wildcard names a provider: a compile that then fails is redone with the whole
// library (frontend.cc), so no error comes from a missing file. What no guess may do is let a
// name the library declares read as something else (EINTR as an unassigned D variable): every
// name a file declares counts, and tests/lang/library_selection_test.cc checks the scan below
// against the parser.
#pragma once

#include <span>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace dsched::lang {

// Sets of identifiers, as views into the texts they come from.
using Words = std::unordered_set<std::string_view>;

// Identifiers in `text`; comments and literals count too, which only ever selects more.
Words words_of(std::string_view text);

// The names a library file declares at file scope: typedef, inline and variable names, the tags
// of structs, unions and enums it defines, and enumerators.
Words declared_names(std::string_view library_text);

// For each of `library`'s texts (in compile order), whether a compile of `user_texts` needs it.
std::vector<bool> needed_library_files(std::span<const std::string_view> library,
                                       std::span<const std::string_view> user_texts);

}  // namespace dsched::lang
