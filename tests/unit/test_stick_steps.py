"""Lists on the pause panel, the title screen and the results screen step one row per push of
the stick; a held stick does not scroll, and a stick already pushed when a screen opens must
come back first."""

from systems.menu import NAV_THRESHOLD, StickSteps


def test_one_step_per_push_and_none_while_held():
    steps = StickSteps(latched=False)
    assert steps.step(0.0, -1.0) == (1, 0)  # down the list
    assert [steps.step(0.0, -1.0) for _ in range(30)] == [(0, 0)] * 30  # held: no scrolling
    assert steps.step(0.0, -0.3 * NAV_THRESHOLD) == (0, 0)  # back near neutral: unlatched
    assert steps.step(0.0, 1.0) == (-1, 0)  # up
    steps.step(0.0, 0.0)
    assert steps.step(1.0, 0.2) == (0, 1)  # mostly sideways: a value to the right
    steps.step(0.0, 0.0)
    assert steps.step(-0.8, 0.7) == (0, -1)  # more sideways than up: left
    steps.step(0.0, 0.0)
    assert steps.step(0.6, 0.7) == (-1, 0)  # more up than sideways: up


def test_a_stick_pushed_when_the_screen_opens_must_come_back_first():
    steps = StickSteps()
    assert steps.step(0.0, -1.0) == (0, 0)
    assert steps.step(0.0, 0.0) == (0, 0)
    assert steps.step(0.0, -1.0) == (1, 0)


def test_a_small_deflection_is_no_step():
    steps = StickSteps(latched=False)
    assert steps.step(0.9 * NAV_THRESHOLD, 0.9 * NAV_THRESHOLD) == (0, 0)
    assert not steps.latched
