"""Reference oracles the differential tests compare mjrules with (tests/oracles/mcr.py: PyMahjongGB for 国标麻将)."""
