"""A graph node whose op has no kernel on any device: TF 2.21's placer fails
the session run with INVALID_ARGUMENT ("No OpKernel was registered to
support Op ..."), while eager execution of the same op gives NOT_FOUND
("Could not find device for node ..."). The expected texts are TF 2.21's,
printed by the pip package for BoostedTreesEnsembleResourceHandleOp (an op
TF defines without a CPU kernel) and Sin on int32."""

from __future__ import annotations

import pytest

import tfe_py as tf
from tfe_py import errors, ops
from tfe_py.session import Session


def test_session_run_of_a_kernel_less_op_is_invalid_argument() -> None:
    g = tf.Graph()
    with g.as_default():
        h = ops.BoostedTreesEnsembleResourceHandleOp()
    with Session(graph=g) as s, pytest.raises(errors.InvalidArgumentError) as info:
        s.run(h)
    msg = str(info.value)
    assert msg.startswith(
        "No OpKernel was registered to support Op 'BoostedTreesEnsembleResourceHandleOp' "
        "used by {{node BoostedTreesEnsembleResourceHandleOp}} with these attrs: "
        '[container="", shared_name=""]\nRegistered devices: [CPU]\nRegistered kernels:\n'
        "  <no registered kernels>\n"
    ), msg


def test_eager_execution_of_a_kernel_less_op_stays_not_found() -> None:
    with pytest.raises(errors.NotFoundError) as info:
        ops.BoostedTreesEnsembleResourceHandleOp()
    assert str(info.value).startswith(
        "Could not find device for node: {{node BoostedTreesEnsembleResourceHandleOp}} = "
        'BoostedTreesEnsembleResourceHandleOp[container="", shared_name=""]\n'
        "All kernels registered for op BoostedTreesEnsembleResourceHandleOp:\n"
        "  <no registered kernels>\n"
    )
