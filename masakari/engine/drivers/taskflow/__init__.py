"""The taskflow notification driver (entry point ``taskflow_driver``)."""

from masakari.engine.drivers.taskflow import driver

TaskFlowDriver = driver.TaskFlowDriver

__all__ = ['TaskFlowDriver']
