#include <doctest/doctest.h>

#include "abi/printf_spec.h"

using namespace dsched::printf_spec;

namespace {

const Conversion& conv_at(const Format& f, size_t i) { return *f.conversions().at(i); }

std::string parse_error(std::string_view text) { return parse_format(text).error; }

}  // namespace

TEST_CASE("literal text and conversions are split in order") {
  const ParseResult r = parse_format("pid %-8lld is %s: 100%%\n");
  REQUIRE(r.ok());
  REQUIRE(r.format.pieces.size() == 7);
  CHECK(std::get<std::string>(r.format.pieces[0]) == "pid ");
  const Conversion& d = conv_at(r.format, 0);
  CHECK(d.left);
  CHECK(d.width == 8);
  CHECK(d.length == Length::ll);
  CHECK(d.specifier == 'd');
  CHECK(d.text == "%-8lld");
  CHECK(d.number == 1);
  CHECK(std::get<std::string>(r.format.pieces[2]) == " is ");
  CHECK(conv_at(r.format, 1).specifier == 's');
  CHECK(conv_at(r.format, 2).specifier == '%');
  CHECK(conv_at(r.format, 2).number == 3);
  CHECK(std::get<std::string>(r.format.pieces[6]) == "\n");
}

TEST_CASE("flags, star width and precision, and every length modifier") {
  const ParseResult r = parse_format("%+ #0*.*x %'5.3d %?p %hu %hd %lx %llu %wc %lc %Lf %@d");
  REQUIRE(r.ok());
  const Conversion& x = conv_at(r.format, 0);
  CHECK((x.plus && x.space && x.alt && x.zero && x.width_from_arg && x.precision_from_arg));
  const Conversion& d = conv_at(r.format, 1);
  CHECK((d.group && d.width == 5 && d.precision == 3));
  CHECK(conv_at(r.format, 2).width == 16);
  CHECK(conv_at(r.format, 3).length == Length::h);
  CHECK(conv_at(r.format, 4).length == Length::h);
  CHECK(conv_at(r.format, 5).length == Length::l);
  CHECK(conv_at(r.format, 6).length == Length::ll);
  CHECK(conv_at(r.format, 7).length == Length::w);
  CHECK(conv_at(r.format, 8).length == Length::l);
  CHECK(conv_at(r.format, 9).length == Length::L);
  CHECK(conv_at(r.format, 10).aggregation);
}

TEST_CASE("'-' cancels the '0' flag") {
  const ParseResult r = parse_format("%0-5d");
  REQUIRE(r.ok());
  CHECK(conv_at(r.format, 0).left);
  CHECK_FALSE(conv_at(r.format, 0).zero);
}

TEST_CASE("malformed formats are rejected with DTrace's wording") {
  CHECK(parse_error("%q") == "format conversion #1 is undefined: %q");
  CHECK(parse_error("%d and %") == "format conversion #2 name expected before end of format string");
  CHECK(parse_error("%**d") == "format conversion #1 has more than one '*' specified for the output width");
  CHECK(parse_error("%.**d") == "format conversion #1 has more than one '*' specified for the output precision");
  CHECK(parse_error("%1.2.3d") == "format conversion #1 has more than one '.' specified");
  CHECK(parse_error("%1$d") == "format conversion #1 uses unsupported positional format (%n$)");
  CHECK(parse_error("%-%") == "format conversion #1 cannot be combined with other format flags: %%");
  CHECK(parse_error("%hs") == "format conversion #1 is undefined: %hs");
  CHECK(parse_error("%Ld") == "format conversion #1 is undefined: %Ld");
  CHECK(parse_error("%llld") == "format conversion #1 is undefined: %llld");
  // DTrace defines h, l, ll, L and w; not C's hh, z, j or t.
  CHECK(parse_error("%hhd") == "format conversion #1 is undefined: %hhd");
  CHECK(parse_error("%zu") == "format conversion #1 is undefined: %z");
}

TEST_CASE("a length modifier takes only the C type it names") {
  auto fits = [](const char* format, ArgType arg) {
    const ArgType args[] = {arg};
    return !check_printf_args(parse_format(format).format, args).has_value();
  };
  CHECK(fits("%ld", ArgType::integer(8, true, "long")));
  CHECK_FALSE(fits("%ld", ArgType::integer(4, true, "int")));
  CHECK_FALSE(fits("%ld", ArgType::integer(8, false, "uint64_t")));
  CHECK(fits("%lu", ArgType::integer(8, false, "uint64_t")));
  CHECK(fits("%lx", ArgType::integer(8, true, "int64_t")));
  CHECK(fits("%llx", ArgType::integer(8, false, "uint64_t")));
  CHECK(fits("%hx", ArgType::integer(2, false, "uint16_t")));
  CHECK_FALSE(fits("%hd", ArgType::integer(4, true, "int")));
  CHECK(fits("%lc", ArgType::integer(4, true, "int")));
  CHECK_FALSE(fits("%lc", ArgType::integer(1, true, "char")));
  const ArgType one[] = {ArgType::integer(4, true, "int")};
  auto err = check_printf_args(parse_format("%hx").format, one);
  REQUIRE(err);
  CHECK(err->message.find("prototype: short") != std::string::npos);
}

TEST_CASE("printf arguments are checked against the conversions") {
  const Format f = parse_format("%d %s\n").format;
  const ArgType good[] = {ArgType::integer(4, true, "int"), ArgType::string()};
  CHECK_FALSE(check_printf_args(f, good).has_value());

  const ArgType swapped[] = {ArgType::string(), ArgType::integer(4, true, "int")};
  auto err = check_printf_args(f, swapped);
  REQUIRE(err);
  CHECK(err->argument == 2);
  CHECK(err->message ==
        "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
        "\tconversion: %d\n"
        "\t prototype: char, short, int, long, or long long\n"
        "\t  argument: string");

  const ArgType one[] = {ArgType::integer(4, true)};
  err = check_printf_args(f, one);
  REQUIRE(err);
  CHECK(err->message == "printf( ) prototype mismatch: conversion #2 (%s) is missing a corresponding value argument");

  const ArgType three[] = {ArgType::integer(4, true), ArgType::string(), ArgType::integer(8, true)};
  err = check_printf_args(f, three);
  REQUIRE(err);
  CHECK(err->message == "printf( ) prototype mismatch: only 2 arguments required by this format string");
  CHECK(err->argument == 4);
}

TEST_CASE("star widths take an integer argument before the value") {
  const Format f = parse_format("%*.*s").format;
  const ArgType ok[] = {ArgType::integer(4, true), ArgType::integer(4, true), ArgType::string()};
  CHECK_FALSE(check_printf_args(f, ok).has_value());
  const ArgType bad[] = {ArgType::string(), ArgType::integer(4, true), ArgType::string()};
  auto err = check_printf_args(f, bad);
  REQUIRE(err);
  CHECK(err->argument == 2);
  CHECK(err->message.find("prototype: int") != std::string::npos);
  const ArgType none[] = {ArgType::integer(4, true)};
  err = check_printf_args(f, none);
  REQUIRE(err);
  CHECK(err->message == "printf( ) prototype mismatch: conversion #1 (%s) is missing a corresponding \".*\" argument");
}

TEST_CASE("conversion kinds accept only their argument kinds") {
  auto accepts = [](std::string_view fmt, ArgType t) {
    const Format f = parse_format(fmt).format;
    const ArgType args[] = {t};
    return !check_printf_args(f, args).has_value();
  };
  CHECK(accepts("%c", ArgType::integer(1, true)));
  CHECK_FALSE(accepts("%c", ArgType::integer(8, true)));
  CHECK(accepts("%p", ArgType::pointer()));
  CHECK(accepts("%p", ArgType::integer(8, false)));
  CHECK_FALSE(accepts("%x", ArgType::pointer()));
  CHECK(accepts("%Y", ArgType::integer(8, false)));
  CHECK_FALSE(accepts("%Y", ArgType::integer(4, false)));
  CHECK(accepts("%T", ArgType::integer(8, true)));
  CHECK_FALSE(accepts("%T", ArgType::string()));
  CHECK(accepts("%f", ArgType::floating(8)));
  CHECK_FALSE(accepts("%f", ArgType::integer(8, true)));
  CHECK(accepts("%S", ArgType::string()));
  CHECK(accepts("%k", ArgType::stack()));
  CHECK_FALSE(accepts("%s", ArgType::stack()));
  CHECK(accepts("%a", ArgType::pointer()));
}

TEST_CASE("'%@' belongs to printa, and an empty format is an error") {
  const Format agg = parse_format("%@d").format;
  auto err = check_printf_args(agg, {});
  REQUIRE(err);
  CHECK(err->message == "%@ conversion requires an aggregation and is not for use with printf( )");
  err = check_printf_args(parse_format("").format, {});
  REQUIRE(err);
  CHECK(err->message == "printf( ) format string is empty");
}

TEST_CASE("printa formats take keys then aggregation values") {
  const ArgType keys[] = {ArgType::string(), ArgType::integer(4, true, "int")};
  CHECK_FALSE(check_printa_args(parse_format("%s %d %@d\n").format, keys, true).has_value());
  // Keys without a conversion are fine.
  CHECK_FALSE(check_printa_args(parse_format("%s %@u\n").format, keys, false).has_value());
  auto err = check_printa_args(parse_format("%s %d %d %@d").format, keys, true);
  REQUIRE(err);
  CHECK(err->message == "printa( ) prototype mismatch: conversion #3 (%d) is missing a corresponding value argument");
  err = check_printa_args(parse_format("%d %@d").format, keys, true);
  REQUIRE(err);
  CHECK(err->argument == 2);
  CHECK(err->message.find("printa( ) key #1 is incompatible with conversion #1") == 0);
  err = check_printa_args(parse_format("%s %d %@s").format, keys, false);
  REQUIRE(err);
  CHECK(err->message ==
        "printa( ) aggregating action is incompatible with conversion #3 prototype:\n"
        "\tconversion: %s\n"
        "\t prototype: char [] or string (or use stringof)\n"
        "\t  argument: int64_t");
}
