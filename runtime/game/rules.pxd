# Types for mjrules/game/rules.py when Cython compiles it (pure-Python mode): the same source, typed.
cimport cython
from mjrules.native.kernel cimport ShapeTest

cpdef enum:
    N_KINDS = 42
    C_WIN = 1
    C_KONG = 2
    C_PON = 4
    C_CHI = 8

cdef dict _CLAIM_BITS


cdef class Rules:
    cdef public object engine, v, retain, fit, wins, draws, ends
    cdef public ShapeTest shape
    cdef public dict options, overrides, rob_shapes
    cdef public int n, win_size, hand, dealer_hand, dealer_extra, wild_fixed, wild_kinds, chi_from, final_round, retain_const
    cdef public int horse_count
    cdef public unsigned long long discard_win
    cdef public list marked_kinds, aborts_passed, aborts_wins, abort_reads, aborts_first, liabilities
    cdef public list tiles, copies, playable, rounds, wild_of, wild2_of, priority, rob_order, pre, horse_seat
    cdef public bytearray scored, at_once, kong_ind
    cdef public int ind_stacks, ind_after
    cdef public bint leave
    cdef public bint has_wild, wild_after_flowers, indicator_tail, flowers_to_dealer, dice_stack, no_calls
    cdef public bint discard_unclaimable, has_flowers, chi_honours, pon, kong_exposed, kong_added, kong_concealed
    cdef public list rob_concealed_by, rob_added_by
    cdef public bint rob_kong_concealed
    cdef public bint rob_kong_added, pass_blocks_ron, one_winner, has_rd, rd_all, locks_hand, ckkw, has_rob_wild, pays_discards, pays_first_round
    cdef public bint last_discard_win_only, kong_needs_replacement, horse_at_win, rd_turn, rd_ready, rd_concealed
    cdef public int rd_drawable
    cdef public bint furiten_discards, furiten_passed, furiten_declared, furiten_passes, has_furiten, no_swap
    cdef public object rd_stake, estimator
    cdef public str horse_from
    cdef public str wild_mode
    cdef public tuple prefer, rob_requires
