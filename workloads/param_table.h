// A workload's parameter rows, each bound to a field of its params struct,
// as fio's fio_options[] binds each option to its field by offset: config
// validation, `schedlab workloads` and the manifest read the rows
// (specs()); the workload reads a point as that struct (read()), so its code
// says `p.groups` and a misspelt parameter does not compile.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

template <class P>
class ParamTable {
 public:
  // A field of P, one alternative per ParamValue alternative, in its order
  // (and ParamType's): the field's type is the parameter's.
  using Field = std::variant<std::int64_t P::*, std::string P::*, std::chrono::milliseconds P::*,
                             bool P::*, double P::*>;
  static_assert(std::variant_size_v<Field> == std::variant_size_v<ParamValue>);

  struct Row {
    Field field;
    ParamSpec spec;  // its type is the field's; a stated one must agree
  };

  // A point read into P, and which of its parameters are unknown (no one
  // stated them: Point::unknown, or absent from a partial point such as
  // check_fixed's, which lacks the swept ones); an unknown one holds its
  // default.
  class Values : public P {
   public:
    bool known(Field f) const {
      for (const Field& u : unknown_)
        if (u == f) return false;
      return true;
    }
    // The value as format_param writes it, "?" when unknown.
    std::string text(Field f) const {
      if (!known(f)) return "?";
      return std::visit(
          [&](auto member) {
            using T = std::remove_cvref_t<decltype(this->*member)>;
            return format_param(ParamValue(std::in_place_type<T>, this->*member));
          },
          f);
    }

   private:
    friend class ParamTable;
    std::vector<Field> unknown_;
  };

  ParamTable() = default;
  // Throws std::logic_error when a row's default or stated type is not its
  // field's (a declaration error any test constructing the workload finds).
  explicit ParamTable(std::vector<Row> rows) : rows_(std::move(rows)) {
    for (Row& r : rows_) {
      const auto type = static_cast<ParamType>(r.field.index());
      if (r.spec.default_value.index() != r.field.index() ||
          (r.spec.type != ParamType::kInt && r.spec.type != type))
        throw std::logic_error("parameter '" + r.spec.name + "': its default or type is not " +
                               "its field's");
      r.spec.type = type;
      specs_.push_back(r.spec);
    }
  }

  const std::vector<ParamSpec>& specs() const { return specs_; }

  Values read(const Point& point) const {
    Values v;
    for (const Row& r : rows_) {
      const auto it = point.values.find(r.spec.name);
      const bool present = it != point.values.end();
      if (!present || !point.known(r.spec.name)) v.unknown_.push_back(r.field);
      const ParamValue& value = present ? it->second : r.spec.default_value;
      std::visit(
          [&](auto member) {
            using T = std::remove_reference_t<decltype(v.*member)>;
            const T* got = std::get_if<T>(&value);
            if (!got)
              throw std::logic_error("point's parameter '" + r.spec.name +
                                     "' is not of its declared type");
            v.*member = *got;
          },
          r.field);
    }
    return v;
  }

 private:
  std::vector<Row> rows_;
  std::vector<ParamSpec> specs_;
};

}  // namespace schedlab
