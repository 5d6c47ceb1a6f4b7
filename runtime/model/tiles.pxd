# cython: language_level=3
"""Types for compiling mjrules.model.tiles (runtime/model/tiles.py) in Cython's pure-Python mode: its tile scanner is the one
reader of tile notation, and the situation reader calls it from C."""

cpdef enum:
    MELD_CHI = 0       # Meld.code's first byte: the meld's kind
    MELD_PON = 1
    MELD_KONG = 2
    MELD_OTHER = 3
    NO_KIND = 255      # Meld.code's byte for a tile that is no kind

cpdef Py_ssize_t scan_into(str text, Py_ssize_t start, Py_ssize_t end, bytearray out, list where=*) except? -1
cdef Py_ssize_t _digit_at(str text, Py_ssize_t first, Py_ssize_t j) except? -1
cpdef int tile_kind(str text) except? -1
cpdef tuple kinds_named(object names)
cpdef bytearray scan_buffer(Py_ssize_t n)

cdef dict _ONE_TILE, _ONE_KIND
