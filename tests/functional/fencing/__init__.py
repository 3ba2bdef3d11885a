"""The fencing drivers against real BMC emulator processes."""
