# tests/opengl.py
with profile.test_list.group_manager(
        PiglitGLTest,
        grouptools.join('spec', 'ARB_indirect_parameters')) as g:
    g(['arb_indirect_parameters-indirect-count-restart'], 'indirect-count-restart')
