#!/usr/bin/env python3
"""Episodes of the game's bot against itself in carom.env's environment
(CaromEnv, Gymnasium-shaped): what a trainer's loop looks like.

    python3 env.py --map arena.json --episodes 1
"""

import sys

from carom.env import main

if __name__ == "__main__":
    sys.exit(main())
