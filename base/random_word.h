// A word of random characters (std::random_device): names, marks and
// secrets no one can guess. Not a key: base/local_secret draws those.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace schedlab {

inline constexpr std::string_view kLettersAndDigits =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// N characters, each drawn from ALPHABET.
std::string random_word(std::size_t n, std::string_view alphabet = kLettersAndDigits);

}  // namespace schedlab
