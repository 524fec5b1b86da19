// An enum stored and shown as words: its rows (value, word), read either
// way. The vocabularies of base/ (Centre, Direction, SampleKind) are such
// tables.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace schedlab {

template <typename E, std::size_t N>
using WordTable = std::array<std::pair<E, std::string_view>, N>;

// "?" for a value without a row.
template <typename E, std::size_t N>
constexpr std::string_view word_of(const WordTable<E, N>& table, E e) {
  for (const auto& [k, w] : table)
    if (k == e) return w;
  return "?";
}

template <typename E, std::size_t N>
constexpr std::optional<E> from_word(const WordTable<E, N>& table, std::string_view word) {
  for (const auto& [k, w] : table)
    if (w == word) return k;
  return std::nullopt;
}

}  // namespace schedlab
