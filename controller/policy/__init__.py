"""The eject policy and its profiles: how many cards one press of the UNO button yields.

Randomness in, counts out: a policy reads no clock and does no I/O; only getting a profile reads
a file (`load_profile`, the shelf of custom profiles). Nothing here touches the launcher's
hardware, so the simulators, the configuration, the table and the web may all import it without
loading GPIO libraries (`tests/test_layers.py` checks that at run time). The launcher asks it
at each press (`controller.launcher.handle_press`).

* `controller.policy.eject`: the `Profile` (pure data), the built-in `PROFILES`, `EjectPolicy`
  (a profile and an injected `random.Random`), `ScriptedPolicy` for tests and demos, and
  `load_profile` / `profile_from_toml`; exported here;
* `controller.policy.profile_toml`: the parser of custom profiles' TOML probability tables;
* `controller.policy.custom_profiles`: the profiles a table may choose by name (`ProfileShelf`,
  the built-ins and the TOML files of its folders) and a set-up's record of one.
"""

from controller.policy.eject import (
    PROFILES,
    EjectDecision,
    EjectPolicy,
    Policy,
    Profile,
    ProfileError,
    ScriptedPolicy,
    ScriptExhausted,
    load_profile,
    profile_from_toml,
)

__all__ = [
    "PROFILES",
    "EjectDecision",
    "EjectPolicy",
    "Policy",
    "Profile",
    "ProfileError",
    "ScriptExhausted",
    "ScriptedPolicy",
    "load_profile",
    "profile_from_toml",
]
