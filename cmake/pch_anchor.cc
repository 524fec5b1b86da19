// The one source of the targets that only precompile headers
// (cmake/precompiled_headers.cmake): CMake compiles a PCH with a target.
