// {fmt}'s compiled part, built once here rather than in every file that formats. Without
// FMT_HEADER_ONLY a file that includes <fmt/format.h> no longer compiles fmt's <fmt/format-inl.h>
// (vformat, float formatting, error reporting): 1 to 4 s of -O3 compile per file, times five
// builds of the engine. Debian's libfmt-dev ships the headers but not fmt's src/format.cc, whose
// explicit instantiations for char are repeated here (the wchar_t ones are not needed).
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char*, const char*);
template FMT_API void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>,
                                 locale_ref);

}  // namespace detail
FMT_END_NAMESPACE
