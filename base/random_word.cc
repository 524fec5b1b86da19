#include "base/random_word.h"

#include <random>

namespace schedlab {

std::string random_word(std::size_t n, std::string_view alphabet) {
  std::random_device rd;
  std::string word;
  for (std::size_t i = 0; i < n; ++i) word += alphabet[rd() % alphabet.size()];
  return word;
}

}  // namespace schedlab
