package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.util.Set;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.IntrospectionException;
import javax.management.InvalidAttributeValueException;
import javax.management.ListenerNotFoundException;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.MBeanRegistrationException;
import javax.management.MBeanServerConnection;
import javax.management.NotCompliantMBeanException;
import javax.management.NotificationFilter;
import javax.management.NotificationListener;
import javax.management.ObjectInstance;
import javax.management.ObjectName;
import javax.management.QueryExp;
import javax.management.ReflectionException;

/**
 * An {@link MBeanServerConnection} that passes every call to another one; subclasses override the
 * calls they watch (written out by hand rather than a dynamic proxy: the house wires explicitly).
 */
class ForwardingConnection implements MBeanServerConnection {
  private final MBeanServerConnection delegate;

  ForwardingConnection(MBeanServerConnection delegate) {
    this.delegate = delegate;
  }

  @Override
  public ObjectInstance createMBean(String className, ObjectName name)
      throws ReflectionException,
          InstanceAlreadyExistsException,
          MBeanRegistrationException,
          MBeanException,
          NotCompliantMBeanException,
          IOException {
    return delegate.createMBean(className, name);
  }

  @Override
  public ObjectInstance createMBean(String className, ObjectName name, ObjectName loaderName)
      throws ReflectionException,
          InstanceAlreadyExistsException,
          MBeanRegistrationException,
          MBeanException,
          NotCompliantMBeanException,
          InstanceNotFoundException,
          IOException {
    return delegate.createMBean(className, name, loaderName);
  }

  @Override
  public ObjectInstance createMBean(
      String className, ObjectName name, Object[] params, String[] signature)
      throws ReflectionException,
          InstanceAlreadyExistsException,
          MBeanRegistrationException,
          MBeanException,
          NotCompliantMBeanException,
          IOException {
    return delegate.createMBean(className, name, params, signature);
  }

  @Override
  public ObjectInstance createMBean(
      String className, ObjectName name, ObjectName loaderName, Object[] params, String[] signature)
      throws ReflectionException,
          InstanceAlreadyExistsException,
          MBeanRegistrationException,
          MBeanException,
          NotCompliantMBeanException,
          InstanceNotFoundException,
          IOException {
    return delegate.createMBean(className, name, loaderName, params, signature);
  }

  @Override
  public void unregisterMBean(ObjectName name)
      throws InstanceNotFoundException, MBeanRegistrationException, IOException {
    delegate.unregisterMBean(name);
  }

  @Override
  public ObjectInstance getObjectInstance(ObjectName name)
      throws InstanceNotFoundException, IOException {
    return delegate.getObjectInstance(name);
  }

  @Override
  public Set<ObjectInstance> queryMBeans(ObjectName name, QueryExp query) throws IOException {
    return delegate.queryMBeans(name, query);
  }

  @Override
  public Set<ObjectName> queryNames(ObjectName name, QueryExp query) throws IOException {
    return delegate.queryNames(name, query);
  }

  @Override
  public boolean isRegistered(ObjectName name) throws IOException {
    return delegate.isRegistered(name);
  }

  @Override
  public Integer getMBeanCount() throws IOException {
    return delegate.getMBeanCount();
  }

  @Override
  public Object getAttribute(ObjectName name, String attribute)
      throws MBeanException,
          AttributeNotFoundException,
          InstanceNotFoundException,
          ReflectionException,
          IOException {
    return delegate.getAttribute(name, attribute);
  }

  @Override
  public AttributeList getAttributes(ObjectName name, String[] attributes)
      throws InstanceNotFoundException, ReflectionException, IOException {
    return delegate.getAttributes(name, attributes);
  }

  @Override
  public void setAttribute(ObjectName name, Attribute attribute)
      throws InstanceNotFoundException,
          AttributeNotFoundException,
          InvalidAttributeValueException,
          MBeanException,
          ReflectionException,
          IOException {
    delegate.setAttribute(name, attribute);
  }

  @Override
  public AttributeList setAttributes(ObjectName name, AttributeList attributes)
      throws InstanceNotFoundException, ReflectionException, IOException {
    return delegate.setAttributes(name, attributes);
  }

  @Override
  public Object invoke(ObjectName name, String operationName, Object[] params, String[] signature)
      throws InstanceNotFoundException, MBeanException, ReflectionException, IOException {
    return delegate.invoke(name, operationName, params, signature);
  }

  @Override
  public String getDefaultDomain() throws IOException {
    return delegate.getDefaultDomain();
  }

  @Override
  public String[] getDomains() throws IOException {
    return delegate.getDomains();
  }

  @Override
  public void addNotificationListener(
      ObjectName name, NotificationListener listener, NotificationFilter filter, Object handback)
      throws InstanceNotFoundException, IOException {
    delegate.addNotificationListener(name, listener, filter, handback);
  }

  @Override
  public void addNotificationListener(
      ObjectName name, ObjectName listener, NotificationFilter filter, Object handback)
      throws InstanceNotFoundException, IOException {
    delegate.addNotificationListener(name, listener, filter, handback);
  }

  @Override
  public void removeNotificationListener(ObjectName name, ObjectName listener)
      throws InstanceNotFoundException, ListenerNotFoundException, IOException {
    delegate.removeNotificationListener(name, listener);
  }

  @Override
  public void removeNotificationListener(
      ObjectName name, ObjectName listener, NotificationFilter filter, Object handback)
      throws InstanceNotFoundException, ListenerNotFoundException, IOException {
    delegate.removeNotificationListener(name, listener, filter, handback);
  }

  @Override
  public void removeNotificationListener(ObjectName name, NotificationListener listener)
      throws InstanceNotFoundException, ListenerNotFoundException, IOException {
    delegate.removeNotificationListener(name, listener);
  }

  @Override
  public void removeNotificationListener(
      ObjectName name, NotificationListener listener, NotificationFilter filter, Object handback)
      throws InstanceNotFoundException, ListenerNotFoundException, IOException {
    delegate.removeNotificationListener(name, listener, filter, handback);
  }

  @Override
  public MBeanInfo getMBeanInfo(ObjectName name)
      throws InstanceNotFoundException, IntrospectionException, ReflectionException, IOException {
    return delegate.getMBeanInfo(name);
  }

  @Override
  public boolean isInstanceOf(ObjectName name, String className)
      throws InstanceNotFoundException, IOException {
    return delegate.isInstanceOf(name, className);
  }
}
