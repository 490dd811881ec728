# tests/opengl.py
with profile.test_list.group_manager(
        PiglitGLTest,
        grouptools.join('spec', 'ARB_shader_draw_parameters')) as g:
    g(['arb_shader_draw_parameters-multidraw-restart-draw-id'], 'multidraw-restart-draw-id')
